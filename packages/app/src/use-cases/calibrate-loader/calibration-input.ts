import { CALIBRATION_BUDGET, type DataLoaderConfig } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';
import type { DataSourcePort } from '../../ports/data-source.port';
import type { CalibrateLoaderInput, CalibrationMode } from './calibrate-loader.input';

/** Defaults: a short search (the seed asked for seconds, not minutes), and a week before a result is re-measured. @public */
export const CALIBRATION_DEFAULTS = {
  budgetMs: CALIBRATION_BUDGET.default * 1000,
  batchesPerCandidate: 20,
  ttlMs: 7 * 24 * 3_600_000,
} as const;

/** Host facts that go into the calibration signature. @public */
export interface CalibrationHost {
  readonly cpus: number;
  readonly memoryBytes: number;
  readonly os: string;
  readonly node: string;
  readonly tfjs: string;
}

/**
 * Builds a calibration input whose signature holds everything that changes the answer: host, versions, backend,
 * batch size and the dataset (its description and shard count).
 * @public
 */
export const calibrationInputFor = async (o: {
  mode: CalibrationMode;
  source: DataSourcePort;
  loader: DataLoaderConfig;
  host: CalibrationHost;
  backend: BackendInfo;
  limits: CalibrateLoaderInput['limits'];
  fixed?: CalibrateLoaderInput['fixed'];
  budgetMs?: number;
}): Promise<CalibrateLoaderInput> => {
  const shards = await o.source.shards();
  const rows = shards.reduce((s, x) => s + x.rows, 0);
  return {
    mode: o.mode,
    source: o.source,
    base: o.loader,
    limits: o.limits,
    fixed: o.fixed,
    signature: {
      cpuCores: o.host.cpus,
      memoryBytes: o.host.memoryBytes,
      os: o.host.os,
      node: o.host.node,
      tfjs: o.host.tfjs,
      backend: o.backend.name,
      backendVersion: o.backend.version,
      batchSize: o.loader.batchSize,
      dataset: `${o.source.describe()} shards=${shards.length} rows=${rows}`,
      streaming: o.loader.streaming,
      pinMemory: o.loader.pinMemory,
    },
    budgetMs: o.budgetMs ?? CALIBRATION_DEFAULTS.budgetMs,
    batchesPerCandidate: CALIBRATION_DEFAULTS.batchesPerCandidate,
    ttlMs: CALIBRATION_DEFAULTS.ttlMs,
  };
};
