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

describe('two benchmarkTraining calls at once', () => {
  it('given wasm and cpu runs under Promise.all, then each runs every batch on the backend it reports', async () => {
    const seen = { wasm: [] as string[], cpu: [] as string[] };
    const [wasm, cpu] = await Promise.all([
      benchmarkTraining({ ...small, gpu: 'wasm' }, { overrides: { Progress: backendAtEachBatch(seen.wasm) } }),
      benchmarkTraining({ ...small, gpu: 'cpu' }, { overrides: { Progress: backendAtEachBatch(seen.cpu) } }),
    ]);
    expect([wasm.environment.backend, cpu.environment.backend]).toEqual(['wasm', 'cpu']);
    expect(seen).toEqual({ wasm: ['wasm', 'wasm'], cpu: ['cpu', 'cpu'] });
    // the second waited for the first, and says how long
    expect(wasm.environment.queued_ms).toBeLessThan(1000);
    expect(cpu.environment.queued_ms).toBeGreaterThan(0);
  }, 180_000);

  (gpu.available ? it : it.skip)(
    'given webgpu (lavapipe) and wasm runs under Promise.all, then each runs every batch on the backend it reports',
    async () => {
      const seen = { webgpu: [] as string[], wasm: [] as string[] };
      const [webgpu, wasm] = await Promise.all([
        benchmarkTraining({ ...small, gpu: 'webgpu' }, { overrides: { Progress: backendAtEachBatch(seen.webgpu) } }),
        benchmarkTraining({ ...small, gpu: 'wasm' }, { overrides: { Progress: backendAtEachBatch(seen.wasm) } }),
      ]);
      expect([webgpu.environment.backend, wasm.environment.backend]).toEqual(['webgpu', 'wasm']);
      expect(seen).toEqual({ webgpu: ['webgpu', 'webgpu'], wasm: ['wasm', 'wasm'] });
      expect(wasm.environment.queued_ms).toBeGreaterThan(0);
    },
    300_000,
  );
});
