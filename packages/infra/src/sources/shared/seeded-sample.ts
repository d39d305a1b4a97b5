import { SAMPLE_RATIO, mulberry32 } from '@maou/bench-domain';

/**
 * Picks `max(1, floor(n · ratio))` items (ratio clamped to [0.01, 1], as maou does) with a seeded partial
 * Fisher–Yates shuffle, then returns them in their original order so cache layout does not depend on the draw.
 * Items are expected sorted, so the choice depends on the seed only, not on listing order.
 * @internal
 */
export const seededSample = <T>(items: readonly T[], ratio: number | null, seed: number): T[] => {
  if (ratio === null || ratio >= 1 || items.length === 0) return [...items];
  const r = Math.min(SAMPLE_RATIO.bounds.max, Math.max(SAMPLE_RATIO.bounds.min, ratio));
  const k = Math.max(1, Math.floor(items.length * r));
  const idx = items.map((_, i) => i);
  const random = mulberry32(seed);
  for (let i = 0; i < k; i += 1) {
    const j = i + Math.floor(random() * (idx.length - i));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, k)
    .sort((x, y) => x - y)
    .map((i) => items[i]);
};
