import { get, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { transientClassifier, type ObjectEntry, type ObjectStore } from '@maou/bench-infra';
import { BUSY } from './http-folder-server';

/** A refused request, with the store's own code from the answer's body. */
class HttpFolderError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    url: string,
  ) {
    super(`${url}: HTTP ${status} ${code}`);
    this.name = 'HttpFolderError';
  }
}

const body = async (res: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** The bucket store over an HTTP folder server: single attempts; its own busy answer is worth another try. */
export class HttpFolderStore implements ObjectStore {
  readonly kind = 'http-folder';
  readonly scheme = 'folder+http';
  readonly isTransient = transientClassifier((e) => e instanceof HttpFolderError && e.code === BUSY);

  constructor(
    private readonly endpoint: string | undefined,
    readonly bucket: string,
  ) {}

  async list(prefix: string, signal?: AbortSignal): Promise<ObjectEntry[]> {
    const res = await this.request(`?prefix=${encodeURIComponent(prefix)}`, signal);
    return JSON.parse(await body(res)) as ObjectEntry[];
  }

  read(key: string, signal?: AbortSignal): Promise<Readable> {
    return this.request(`/${key.split('/').map(encodeURIComponent).join('/')}`, signal);
  }

  private request(path: string, signal?: AbortSignal): Promise<IncomingMessage> {
    if (this.endpoint === undefined)
      return Promise.reject(new Error('--input-endpoint is required with --input-http-folder'));
    const url = `${this.endpoint}/${encodeURIComponent(this.bucket)}${path}`;
    return new Promise((resolve, reject) => {
      get(url, { signal }, (res) => {
        if (res.statusCode === 200) return resolve(res);
        body(res).then(
          (text) =>
            reject(new HttpFolderError(res.statusCode ?? 0, (JSON.parse(text) as { error: string }).error, url)),
          reject,
        );
      }).on('error', reject);
    });
  }
}
