import { ok, type Result } from '@maou/bench-domain';
import { cloudDeps, cloudSource, type CloudSourceCreator } from '../shared/cloud-source';
import type { CloudSourceError } from '../shared/cloud-source-error';
import { loadOptionalModule, requireModule } from '../shared/optional-module';
import { DEFAULT_RETRY_POLICY } from '../shared/retry-policy';
import type { SourceDefinition } from '../source-definition';
import type { ObjectStore } from './object-store';
import { ObjectStoreDataSourceAdapter } from './object-store-data-source.adapter';
import {
  OBJECT_STORE_FLAGS,
  parseObjectStore,
  type ObjectStoreSettings,
  type ObjectStoreSpec,
} from './object-store-settings';

/** What a store connects to: the spec's bucket, endpoint and request timeout. @public */
export type StoreTarget = Pick<ObjectStoreSettings, 'bucket' | 'endpoint' | 'requestTimeoutMs'>;

/**
 * What one bucket-style store brings, all that differs between S3, GCS or a new one: the factory adds the shared
 * flags and parser, and the listing, sampling, downloads, cache and retries around the store's single attempts.
 * @public
 */
export interface ObjectStoreKind<K extends string, Sdk, C> {
  readonly kind: K;
  /** the line heading its flags in `--help` */
  readonly help: string;
  /** how messages and reports name it (`S3`) */
  readonly label: string;
  /** the flag that selects it, and what `--help` says of it */
  readonly flag: { readonly name: string; readonly describe: string };
  /** the optional client library it reads through, loaded when a run opens it; a missing one is an error naming the flag */
  readonly sdkModule?: string;
  /** a store on `target`'s bucket; `client` holds the settings a caller passes (credentials, region), `sdk` the library */
  connect(sdk: Sdk, target: StoreTarget, client: C | undefined): ObjectStore;
}

/** A bucket source's spec, of one kind. @public */
export type ObjectStoreKindSpec<K extends string> = ObjectStoreSpec & { readonly kind: K };

/** A bucket source's registry entry, with the steps the harnesses and specs drive one at a time. @public */
export interface ObjectStoreSource<K extends string, C> extends SourceDefinition<ObjectStoreKindSpec<K>> {
  /** the source, not yet prepared */
  readonly create: CloudSourceCreator<ObjectStoreKindSpec<K>, C>;
  /** loads the client library and connects a store, without the source around it */
  store(target: StoreTarget, client?: C): Promise<Result<ObjectStore, CloudSourceError>>;
}

/**
 * One bucket-style store as a datasource plug-in: `--<flag>` selects it, the shared `--input-*` flags fill its spec,
 * and a run opens it by loading its client library, connecting the store and preparing the objects.
 * @public
 */
export const objectStoreSource = <K extends string, Sdk = undefined, C = never>(
  kind: ObjectStoreKind<K, Sdk, C>,
): ObjectStoreSource<K, C> => {
  const store = async (target: StoreTarget, client?: C): Promise<Result<ObjectStore, CloudSourceError>> => {
    const name = kind.sdkModule;
    const sdk =
      name === undefined
        ? ok(undefined as Sdk)
        : await loadOptionalModule(name, `--${kind.flag.name}`, () => requireModule<Sdk>(name));
    if (!sdk.ok) return sdk;
    return ok(kind.connect(sdk.value, target, client));
  };
  const create: CloudSourceCreator<ObjectStoreKindSpec<K>, C> = async (spec, stage, context, o) => {
    const connected = await store(spec, o.client);
    if (!connected.ok) return connected;
    const { sampleRatio, idleTimeoutMs } = o;
    const settings = { ...spec, sampleRatio, retry: o.retry ?? DEFAULT_RETRY_POLICY, idleTimeoutMs };
    return ok(new ObjectStoreDataSourceAdapter(stage, connected.value, settings, cloudDeps(context, o)));
  };
  const definition = cloudSource<ObjectStoreKindSpec<K>, C>(
    {
      kind: kind.kind,
      help: kind.help,
      flags: { [kind.flag.name]: { type: 'boolean', describe: kind.flag.describe }, ...OBJECT_STORE_FLAGS },
      selectedBy: [kind.flag.name],
      stages: [3],
      parse: parseObjectStore(kind.kind, kind.label, kind.flag.name),
    },
    create,
  );
  return { ...definition, create, store };
};
