import { ok, type DataSourceSpec, type Result, type Stage } from '@maou/bench-domain';
import type { CloudSourceError } from '../shared/cloud-source-error';
import {
  cloudDeps,
  type CloudDataSource,
  type CloudSourceContext,
  type CloudSourceOptions,
} from '../shared/cloud-source';
import { DEFAULT_RETRY_POLICY } from '../shared/retry-policy';
import type { ObjectStore } from './object-store';
import { ObjectStoreDataSourceAdapter } from './object-store-data-source.adapter';

/** The spec of a source in a bucket: S3 or GCS. @public */
export type ObjectStoreSpec = Extract<DataSourceSpec, { kind: 's3' | 'gcs' }>;

/** An S3 or GCS source over the bucket client its kind made (or the error making it). @internal */
export const openObjectSource = (
  spec: ObjectStoreSpec,
  stage: Stage,
  context: CloudSourceContext,
  o: CloudSourceOptions,
  store: Result<ObjectStore, CloudSourceError>,
): Result<CloudDataSource, CloudSourceError> => {
  if (!store.ok) return store;
  return ok(
    new ObjectStoreDataSourceAdapter(
      stage,
      store.value,
      {
        prefix: spec.prefix,
        dataName: spec.dataName,
        localCacheDir: spec.localCacheDir,
        maxWorkers: spec.maxWorkers,
        enableBundling: spec.enableBundling,
        bundleSizeGb: spec.bundleSizeGb,
        sampleRatio: o.sampleRatio,
        seed: spec.seed,
        retry: o.retry ?? DEFAULT_RETRY_POLICY,
        idleTimeoutMs: o.idleTimeoutMs,
      },
      cloudDeps(context, o),
    ),
  );
};
