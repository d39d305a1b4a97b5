import type { Readable } from 'node:stream';

/** One object found under a prefix. @public */
export interface ObjectEntry {
  readonly key: string;
  readonly size: number;
}

/**
 * The two calls the object-storage source needs from a bucket store, and how to tell its failures apart.
 * Implementations make single attempts: retries, caching and statistics live around them, the same for every store.
 * @public
 */
export interface ObjectStore {
  /** the store's kind as reports and logs name it (`s3`, `gcs`) */
  readonly kind: string;
  /** the scheme of its object URLs in messages (`s3`, `gs`) */
  readonly scheme: string;
  readonly bucket: string;
  /** every object whose key starts with `prefix`, all pages; `signal` abandons the request (its socket is freed) */
  list(prefix: string, signal?: AbortSignal): Promise<ObjectEntry[]>;
  /**
   * the object's bytes as a Node stream (destroyable, unlike a generic async iterable), once the server has answered;
   * `signal` abandons the request before that
   */
  read(key: string, signal?: AbortSignal): Promise<Readable>;
  /** whether a failed call is worth another try: its client's own names for throttling, then the shared HTTP rules */
  isTransient(error: unknown): boolean;
}
