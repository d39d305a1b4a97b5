import { planResources, usableResources, type GivenSettings } from '@maou/bench-domain';
import type { BackendChoice } from '../ports/compute-backend.port';
import type { SourceChoice } from '../ports/data-source-factory.port';

/** A backend as a plug-in describes it to the option parsers, selected by its own name. @public */
export const backendChoice = (name: string, placement: BackendChoice['placement'] = 'host'): BackendChoice => ({
  name,
  usage: name,
  help: '',
  placement,
  selects: (v) => (v === name ? 0 : null),
});

/** The source of a run that names none, as a plug-in describes it (the shipped plug-ins: the library's source-plug-ins.spec). @public */
export const SAMPLE_SOURCE_CHOICE: SourceChoice = {
  kind: 'sample',
  help: 'generated data',
  flags: {},
  selectedBy: [],
  parse: () => ({ warnings: [], spec: { kind: 'sample', label: 'generated data', sampled: false, streamable: true } }),
};

/**
 * What the cli hands the option parsers besides the flags: the registered sources and backends, the sample cache, and
 * the resource plan's decisions (the domain's planResources) for loader workers and the batch size (256).
 * @public
 */
export const parserDefaults = (backends: readonly BackendChoice[], workers: number) => ({
  sources: [SAMPLE_SOURCE_CHOICE],
  cache: { dir: '/tmp/maou-sample', origin: 'the cache' },
  workers,
  batchSize: 256,
  backends: [...backends],
});

/**
 * The resource plan's decisions for the flags a spec gives (the domain's planResources, on a machine of `cores`
 * usable cores and 16 GiB), as the composition root hands them to the option parsers.
 * @public
 */
export const plannedSettings = (
  given: GivenSettings,
  cores = 2,
): { workers: number; threads: number; batchSize: number } => {
  const host = usableResources({ version: 'none', cpuQuotaCores: null, memoryLimitBytes: null }, cores, 16 * 2 ** 30);
  const { workers, threads, batchSize } = planResources(host, given);
  return { workers, threads, batchSize };
};
