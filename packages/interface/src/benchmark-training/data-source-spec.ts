import { checkBigQueryNames, type DataSourceSpec, type Stage, type ValidationIssue } from '@maou/bench-domain';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** Defaults that depend on the machine, supplied by the caller. */
export interface SourceDefaults {
  readonly sampleCacheDir: string;
}

type Picked = { readonly spec: DataSourceSpec; readonly warnings: string[] } | { readonly issues: ValidationIssue[] };

const cloudChoices = (raw: Raw): string[] => [
  ...(raw.inputDatasetId || raw.inputTableName ? ['BigQuery'] : []),
  ...(raw.inputGcs ? ['GCS'] : []),
  ...(raw.inputS3 ? ['S3'] : []),
];

const missing = (raw: Raw, keys: readonly (keyof Raw)[], flags: readonly string[], why: string): ValidationIssue[] =>
  keys.flatMap((k, i) => (raw[k] ? [] : [{ field: flags[i]!, message: `required ${why}` }]));

const cloud = (raw: Raw, kind: 's3' | 'gcs'): Picked => {
  const issues = missing(
    raw,
    ['inputBucketName', 'inputPrefix', 'inputDataName', 'inputLocalCacheDir'],
    ['--input-bucket-name', '--input-prefix', '--input-data-name', '--input-local-cache-dir'],
    `with --input-${kind}`,
  );
  if (issues.length) return { issues };
  return {
    warnings: [],
    spec: {
      kind,
      bucket: raw.inputBucketName!,
      prefix: raw.inputPrefix!,
      dataName: raw.inputDataName!,
      localCacheDir: raw.inputLocalCacheDir!,
      maxWorkers: raw.inputMaxWorkers ?? 8,
      seed: raw.seed ?? 1,
      enableBundling: raw.inputEnableBundling ?? false,
      bundleSizeGb: raw.inputBundleSizeGb ?? 1,
      ...(raw.inputEndpoint ? { endpoint: raw.inputEndpoint } : {}),
    },
  };
};

const bigquery = (raw: Raw): Picked => {
  const issues = [
    ...missing(
      raw,
      ['inputDatasetId', 'inputTableName'],
      ['--input-dataset-id', '--input-table-name'],
      'for a BigQuery source',
    ),
    ...checkBigQueryNames({
      datasetId: raw.inputDatasetId || undefined,
      tableName: raw.inputTableName || undefined,
      clusteringKey: raw.inputClusteringKey,
      partitioningKeyDate: raw.inputPartitioningKeyDate,
    }),
  ];
  if (issues.length) return { issues };
  const localCacheDir = raw.inputLocalCache || raw.inputLocalCacheDir ? raw.inputLocalCacheDir : undefined;
  return {
    warnings: [],
    spec: {
      kind: 'bigquery',
      datasetId: raw.inputDatasetId!,
      tableName: raw.inputTableName!,
      batchSize: raw.inputBatchSize ?? 10000,
      seed: raw.seed ?? 1,
      maxCachedBytes: raw.inputMaxCachedBytes ?? 524_288_000,
      ...(raw.inputClusteringKey ? { clusteringKey: raw.inputClusteringKey } : {}),
      ...(raw.inputPartitioningKeyDate ? { partitioningKeyDate: raw.inputPartitioningKeyDate } : {}),
      ...(localCacheDir ? { localCacheDir } : {}),
      ...(raw.inputEndpoint ? { apiEndpoint: raw.inputEndpoint } : {}),
    },
  };
};

/**
 * Picks the one datasource of the run. Several cloud sources, or a local path together with a cloud source, are
 * errors (maou let the local path win silently). No source at all means the embedded sample data.
 */
export const pickDataSource = (raw: Raw, stage: Stage, defaults: SourceDefaults): Picked => {
  const clouds = cloudChoices(raw);
  const localFlag = `--stage${stage}-data-path`;
  const local = stage === 1 ? raw.stage1DataPath : stage === 2 ? raw.stage2DataPath : raw.stage3DataPath;
  const stray = ([1, 2, 3] as const).filter(
    (n) => n !== stage && (n === 1 ? raw.stage1DataPath : n === 2 ? raw.stage2DataPath : raw.stage3DataPath)?.length,
  );
  if (stray.length) {
    return {
      issues: stray.map((n) => ({
        field: `--stage${n}-data-path`,
        message: `given, but --stage is ${stage}: pass --stage ${n} to benchmark these files (otherwise Stage ${stage} would run on other data)`,
      })),
    };
  }
  if (clouds.length > 1)
    return { issues: [{ field: '--input-*', message: `choose one cloud source, got ${clouds.join(' and ')}` }] };
  if (clouds.length === 1 && stage !== 3)
    return {
      issues: [
        { field: `--input-${clouds[0]!.toLowerCase()}`, message: 'cloud sources hold Stage 3 data; use --stage 3' },
      ],
    };
  if (local?.length && clouds.length)
    return { issues: [{ field: localFlag, message: `cannot be combined with a ${clouds[0]} source` }] };
  const unsampled = (what: string): string[] =>
    raw.sampleRatio !== undefined ? [`--sample-ratio only samples cloud sources; ${what} read whole`] : [];
  if (local?.length) return { warnings: unsampled('local files are'), spec: { kind: 'local', paths: local } };
  if (raw.inputS3) return cloud(raw, 's3');
  if (raw.inputGcs) return cloud(raw, 'gcs');
  if (clouds.length) return bigquery(raw);
  const spec = {
    kind: 'sample',
    cacheDir: raw.sampleCacheDir ?? defaults.sampleCacheDir,
    positions: raw.samplePositions ?? 4096,
    seed: raw.seed ?? 1,
  } as const;
  return {
    warnings: [
      `no data given (no --stage${stage}-data-path, no cloud source): using the embedded sample data, ${spec.positions} positions from random legal games (seed ${spec.seed})`,
      ...unsampled('the embedded sample data is'),
    ],
    spec,
  };
};
