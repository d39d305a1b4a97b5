import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import type { ProgressPort } from '@maou/bench-use-cases';
import { useLavapipe } from '@maou/bench-testkit/compute';
import { benchmarkTraining, type BenchmarkTrainingOptions } from './benchmark-training';

// Two runs in one process (issue 42): tfjs has one backend per process, so runs take turns; each must run its
// batches on the backend its report names, none falling back to another.
// A tiny vit (about 165,000 parameters): tfjs's cpu backend is slow (its own warning), and this keeps it to seconds.
const small: BenchmarkTrainingOptions = {
  modelArchitecture: 'vit',
  vitEmbedDim: 64,
  vitNumLayers: 1,
  vitNumHeads: 2,
  batchSize: 2,
  samplePositions: 256,
  sampleCacheDir: join(mkdtempSync(join(tmpdir(), 'maou-concurrent-')), 'sample'),
  warmupBatches: 1,
  maxBatches: 2,
  calibrate: false,
};

/** A progress port that notes tfjs's active backend at every batch the run finishes. */
const backendAtEachBatch = (seen: string[]): ProgressPort => ({
  start: () => ({
    advance: () => void seen.push(tf.getBackend()),
    update: () => undefined,
    finish: () => undefined,
  }),
});

const gpu = useLavapipe();
if (!gpu.available) console.warn(`the webgpu case of two runs at once is skipped: ${gpu.reason}`);

/** Both runs started at once; each report, the backends seen at its batches, and how long each waited. */
const runTogether = async (first: string, second: string) => {
  const seen: [string[], string[]] = [[], []];
  const reports = await Promise.all(
    [first, second].map((gpu, i) =>
      benchmarkTraining({ ...small, gpu }, { overrides: { Progress: backendAtEachBatch(seen[i]!) } }),
    ),
  );
  return {
    backends: reports.map((r) => r.environment.backend),
    seen,
    queuedMs: reports.map((r) => r.environment.queued_ms),
  };
};

// Each backend CI has, beside another: webgpu runs on lavapipe where the Vulkan driver is found.
const PAIRS = [
  { first: 'wasm', second: 'cpu', runs: true },
  { first: 'webgpu', second: 'wasm', runs: gpu.available },
];

describe('two benchmarkTraining calls at once', () => {
  for (const { first, second, runs } of PAIRS)
    (runs ? it : it.skip)(
      `given ${first} and ${second} runs under Promise.all, then each runs every batch on the backend it reports`,
      async () => {
        const r = await runTogether(first, second);
        expect({ backends: r.backends, seen: r.seen }).toEqual({
          backends: [first, second],
          seen: [
            [first, first],
            [second, second],
          ],
        });
        // the second waited for the first, and says how long
        expect(r.queuedMs[0]).toBeLessThan(1000);
        expect(r.queuedMs[1]).toBeGreaterThan(0);
      },
      300_000,
    );
});
