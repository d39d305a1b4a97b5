import { TRAINING_DEFAULTS, type BenchmarkConfig } from '@maou/bench-domain';

/**
 * A small valid configuration for use-case specs (lite on the cpu backend, batch 8, 10 batches, local files),
 * `over` replacing whole sections.
 * @public
 */
export const testBenchmarkConfig = (over: Partial<BenchmarkConfig> = {}): BenchmarkConfig => ({
  stage: 3,
  source: { kind: 'local', label: 'local files', sampled: false, streamable: true, reads: ['x'] },
  loader: {
    batchSize: 8,
    workers: 0,
    prefetchFactor: 2,
    pinMemory: false,
    persistentWorkers: true,
    streaming: false,
    shuffle: true,
    testRatio: 0.2,
    cacheMode: 'file',
    devicePrefetch: 0,
    seed: 1,
  },
  // maou's defaults with the small backbone and no clipping (the specs' figures assume them)
  training: { ...TRAINING_DEFAULTS, preset: 'lite', gradientClip: 0 },
  compute: { backend: 'cpu', deviceIndex: 0, threads: 'auto' },
  warmupBatches: 2,
  maxBatches: 10,
  runValidation: false,
  sampleRatio: null,
  enableProfiling: false,
  enableResourceMonitoring: false,
  compilation: false,
  ...over,
});
