import type { RawOptions } from '@maou/bench-interface';

/**
 * The shipped datasources' flags as a type (infra's registry builds their table at run time), so that an option no
 * source declares is a compile error in `benchmarkTraining()`; source-options.spec checks it against the registry.
 */
export const SHIPPED_SOURCE_FLAGS = {
  'stage1-data-path': { type: 'string', array: true },
  'stage2-data-path': { type: 'string', array: true },
  'stage3-data-path': { type: 'string', array: true },
  'sample-positions': { type: 'number' },
  'sample-cache-dir': { type: 'string' },
  'input-s3': { type: 'boolean' },
  'input-gcs': { type: 'boolean' },
  'input-bucket-name': { type: 'string' },
  'input-prefix': { type: 'string' },
  'input-data-name': { type: 'string' },
  'input-max-workers': { type: 'number' },
  'input-enable-bundling': { type: 'boolean' },
  'input-bundle-size-gb': { type: 'number' },
  'input-request-timeout': { type: 'number' },
  'input-local-cache-dir': { type: 'string' },
  'input-endpoint': { type: 'string' },
  'input-dataset-id': { type: 'string' },
  'input-table-name': { type: 'string' },
  'input-batch-size': { type: 'number' },
  'input-max-cached-bytes': { type: 'number' },
  'input-clustering-key': { type: 'string' },
  'input-partitioning-key-date': { type: 'string' },
  'input-local-cache': { type: 'boolean' },
} as const;

/** The shipped datasources' options, camelCased (`stage3DataPath`, `inputS3`, `inputBucketName`, …). @public */
export type SourcePlugInOptions = RawOptions<typeof SHIPPED_SOURCE_FLAGS>;

/** Options as code gives them: a list option (`stage3DataPath`, `batchSizes`) also takes one value. @public */
export type OneOrMore<T> = {
  readonly [K in keyof T]: T[K] extends readonly (infer E)[] | undefined ? E | readonly E[] | undefined : T[K];
};
