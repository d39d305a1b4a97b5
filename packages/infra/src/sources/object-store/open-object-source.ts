import { ok, type Result, type Stage } from '@maou/bench-domain';
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
import type { ObjectStoreSpec } from './object-store-settings';

/** A bucket source over the store client its kind made (or the error making it). @internal */
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
      { ...spec, sampleRatio: o.sampleRatio, retry: o.retry ?? DEFAULT_RETRY_POLICY, idleTimeoutMs: o.idleTimeoutMs },
      cloudDeps(context, o),
    ),
  );
};
