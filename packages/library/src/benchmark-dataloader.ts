import { benchmarkDataloaderOptions, sourceOptions, type RawOptions } from '@maou/bench-interface';
import type { LogLevel } from '@maou/bench-infra';
import type { RunWiring } from './benchmark-training';
import { benchmarkDataloaderSpec } from './commands/benchmark-dataloader';
import type { BenchmarkDataloaderResult } from './commands/benchmark-dataloader.output';
import { runAsLibrary } from './library-options';
import { shippedPlugIns } from './plug-ins';
import type { OneOrMore, SourcePlugInOptions } from './source-options';

/** The flags of `maou utility benchmark-dataloader`, camelCased, with its defaults and checks. @public */
export type BenchmarkDataloaderOptions = OneOrMore<
  Omit<RawOptions<ReturnType<typeof benchmarkDataloaderOptions>>, 'json'> &
    SourcePlugInOptions & { readonly logLevel?: LogLevel }
>;

/**
 * `maou utility benchmark-dataloader` with every default adapter (or those in `wiring.overrides`): the grid of loader
 * settings (workers × prefetch × batch size) against the model's own rate; resolves to its result. Rejects with
 * `UsageError` for bad options (before any I/O) and `BenchmarkRunError` for a failed run.
 * @public
 */
export const benchmarkDataloader = (
  options: BenchmarkDataloaderOptions = {},
  wiring: RunWiring = {},
): Promise<BenchmarkDataloaderResult> => {
  const plugIns = wiring.plugIns ?? shippedPlugIns();
  const table = {
    ...benchmarkDataloaderOptions(plugIns.backends.byPriority()),
    ...sourceOptions(plugIns.sources.choices(), 3),
  };
  return runAsLibrary(benchmarkDataloaderSpec(plugIns), table, options, wiring);
};
