import type { Readable } from 'node:stream';
import type { Storage } from '@google-cloud/storage';
import type * as GcsSdk from '@google-cloud/storage';
import type { ObjectEntry, ObjectStore } from '../object-store/object-store';
import { errorReasons, transientClassifier } from '../shared/transient-error';

type GcsModule = typeof GcsSdk;

/** The reasons GCS gives for a rate limit, whatever the status (its JSON API has answered them with 403). */
const GCS_TRANSIENT = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/** GCS's classifier: its rate-limit reasons, then the shared HTTP rules. @internal */
export const isGcsTransient = transientClassifier((error) => errorReasons(error).some((r) => GCS_TRANSIENT.has(r)));

/** Google Cloud Storage through `@google-cloud/storage`, single attempts. @internal */
export class GcsObjectStore implements ObjectStore {
  readonly kind = 'gcs';
  readonly scheme = 'gs';
  readonly isTransient = isGcsTransient;

  constructor(
    private readonly storage: Storage,
    readonly bucket: string,
  ) {}

  async list(prefix: string): Promise<ObjectEntry[]> {
    const [files] = await this.storage.bucket(this.bucket).getFiles({ prefix, autoPaginate: true });
    return files.map((f) => ({ key: f.name, size: Number(f.metadata.size ?? 0) }));
  }

  // The library starts the request when the stream is first read, so there is no answer to wait for here: the
  // download's wait for its first byte spends the request's budget instead.
  async read(key: string): Promise<Readable> {
    // Sizes are checked by the cache after the transfer; hash validation would need the whole object first.
    const stream = this.storage.bucket(this.bucket).file(key).createReadStream({ validation: false });
    return stream;
  }
}

/** What GCS access needs beyond the bucket; credentials come from Application Default Credentials. @public */
export interface GcsClientSettings {
  readonly apiEndpoint?: string;
  readonly projectId?: string;
  /** per HTTP request, in ms: the library has no abort signal for listings, so this frees a silent server's socket */
  readonly timeoutMs?: number;
}

/** Builds the client with library retries off, so every retry is ours and counted. @internal */
export const createGcsClient = (sdk: GcsModule, settings: GcsClientSettings): Storage =>
  new sdk.Storage({
    apiEndpoint: settings.apiEndpoint,
    projectId: settings.projectId,
    ...(settings.timeoutMs !== undefined ? { timeout: settings.timeoutMs } : {}),
    retryOptions: { autoRetry: false, maxRetries: 0 },
  });
