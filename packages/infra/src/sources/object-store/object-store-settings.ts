import type { SourceFlag } from '@maou/bench-use-cases';
import type { DataSourceSpec, Stage, ValidationIssue } from '@maou/bench-domain';
import { CLOUD, CLOUD_FLAGS, flagValue, numberFlag, requireFlags } from '../shared/source-flags';

/**
 * What the `--input-*` flags say about a bucket source: declared once, held whole by its spec and handed whole to
 * the adapter.
 * @public
 */
export interface ObjectStoreSettings {
  readonly bucket: string;
  readonly prefix: string;
  readonly dataName: string;
  readonly localCacheDir: string;
  readonly maxWorkers: number;
  readonly enableBundling: boolean;
  readonly bundleSizeGb: number;
  readonly seed: number;
  /** `--input-request-timeout` in ms: one request, all its tries together, waits this long for an answer (60 s) */
  readonly requestTimeoutMs?: number;
  readonly endpoint?: string;
}

/** The spec of a bucket source. @public */
export interface ObjectStoreSpec extends DataSourceSpec, ObjectStoreSettings {}

/** The flags every bucket source reads. @internal */
export const OBJECT_STORE_FLAGS = {
  'input-bucket-name': { type: 'string', describe: 'bucket', group: CLOUD },
  'input-prefix': { type: 'string', describe: 'object prefix', group: CLOUD },
  'input-data-name': { type: 'string', describe: 'data name filter', group: CLOUD },
  'input-max-workers': {
    type: 'number',
    describe: 'parallel downloads',
    bounds: { min: 1, max: 256, integer: true },
    default: 8,
    group: CLOUD,
  },
  'input-enable-bundling': { type: 'boolean', describe: 'bundle small objects into larger Arrow files', group: CLOUD },
  'input-bundle-size-gb': {
    type: 'number',
    describe: 'bundle size in GB',
    bounds: { min: 0.001, max: 64 },
    default: 1,
    group: CLOUD,
  },
  ...CLOUD_FLAGS,
} as const satisfies Record<string, SourceFlag>;

const REQUIRED = ['input-bucket-name', 'input-prefix', 'input-data-name', 'input-local-cache-dir'];

/** A bucket source's parser: `--<selectedBy>` selects it, the other flags fill its settings. @internal */
export const parseObjectStore =
  <K extends string>(kind: K, label: string, selectedBy: string) =>
  (
    flags: Readonly<Record<string, unknown>>,
    run: { readonly seed: number; readonly stage: Stage },
  ): { spec: ObjectStoreSpec & { kind: K }; warnings: string[] } | { issues: ValidationIssue[] } => {
    const issues = requireFlags(flags, REQUIRED, `with --${selectedBy}`);
    if (issues.length) return { issues };
    const value = <T>(name: string, fallback: T): T => (flagValue(flags, name) as T | undefined) ?? fallback;
    const localCacheDir = value('input-local-cache-dir', '');
    const endpoint = value<string>('input-endpoint', '');
    return {
      warnings: [],
      spec: {
        kind,
        label,
        sampled: true,
        streamable: false,
        // objects are read through this cache: it is written, and an output there would be read as data
        reads: [localCacheDir],
        writes: { field: '--input-local-cache-dir', dir: localCacheDir },
        bucket: value('input-bucket-name', ''),
        prefix: value('input-prefix', ''),
        dataName: value('input-data-name', ''),
        localCacheDir,
        maxWorkers: numberFlag(flags, OBJECT_STORE_FLAGS, 'input-max-workers'),
        seed: run.seed,
        enableBundling: value('input-enable-bundling', false),
        bundleSizeGb: numberFlag(flags, OBJECT_STORE_FLAGS, 'input-bundle-size-gb'),
        requestTimeoutMs: numberFlag(flags, OBJECT_STORE_FLAGS, 'input-request-timeout') * 1000,
        ...(endpoint ? { endpoint } : {}),
      },
    };
  };
