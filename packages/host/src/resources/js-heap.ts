import { getHeapStatistics } from 'node:v8';

const MIB = 1024 * 1024;

// Generating sample positions from random games: a fixed part (move tables, the game being played, the young
// generation's churn) and a part per position. Measured with generate-sample-data --stage 3 under
// NODE_OPTIONS=--max-old-space-size=32 (56 MiB of V8's 80 MiB limit free at the start): 12,288 positions ran,
// 16,384 once ran (58 s, mostly garbage collection) and once aborted, 65,536 aborted; under 64, 65,536 ran. Rounded up
// so that a refusal comes before an abort.
const GENERATION_FIXED = 48 * MIB;
const GENERATION_PER_POSITION = 1024;

/** About how much JS heap generating `positions` sample positions takes. @public */
export const sampleGenerationHeap = (positions: number): number =>
  GENERATION_FIXED + positions * GENERATION_PER_POSITION;

/**
 * Why `what`, needing about `needBytes` of JS heap, cannot fit this process's V8 heap limit (`heap_size_limit`, which
 * `--max-old-space-size` sets), or null: the check beside the address-space one, so a small heap is a clear refusal
 * before any work and not V8's fatal out-of-memory abort with a native stack.
 * @public
 */
export const jsHeapRefusal = (needBytes: number, what: string): string | null => {
  const { heap_size_limit: limit, used_heap_size: used } = getHeapStatistics();
  if (used + needBytes <= limit) return null;
  const suggest = Math.ceil((used + needBytes) / MIB / 64) * 64 + 64;
  return `the JS heap limit is ${(limit / MIB).toFixed(0)} MiB (V8's heap_size_limit, set by --max-old-space-size) with ${(used / MIB).toFixed(0)} MiB in use, and ${what} needs about ${(needBytes / MIB).toFixed(0)} MiB more: give NODE_OPTIONS=--max-old-space-size=${suggest} or more`;
};
