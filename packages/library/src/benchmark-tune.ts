import type { TuneReport } from '@maou/bench-domain';
import type { RawOptions, TUNE_OPTIONS } from '@maou/bench-interface';
import type { BenchmarkTrainingOptions, RunWiring } from './benchmark-training';
import { benchmarkTuneSpec, benchmarkTuneTable } from './commands/benchmark-tune';
import { runAsLibrary } from './library-options';
import { shippedPlugIns } from './plug-ins';

/**
 * The options of `maou utility benchmark-tune`: every option of `benchmarkTraining()` (the configuration to improve),
 * and `tuneBudget` (seconds) and `tuneAllow` (changes that alter the training: `batch-size`, `mixed-precision`,
 * `architecture`).
 * @public
 */
export type BenchmarkTuneOptions = BenchmarkTrainingOptions & RawOptions<typeof TUNE_OPTIONS>;

/**
 * `maou utility benchmark-tune` with every default adapter (or those in `wiring.overrides`): each advised change
 * measured against the configuration in the same run, the winners combined and verified, and the command line of
 * the result. Rejects with `UsageError` for bad options (before any I/O) and `BenchmarkRunError` for a failed or
 * interrupted tune.
 * @public
 */
export const benchmarkTune = (options: BenchmarkTuneOptions = {}, wiring: RunWiring = {}): Promise<TuneReport> => {
  const plugIns = wiring.plugIns ?? shippedPlugIns();
  return runAsLibrary(benchmarkTuneSpec(plugIns), benchmarkTuneTable(plugIns), options, wiring);
};
