import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, sep } from 'node:path';

/** The store's own "try again" answer: HTTP 423 with this code, which only its classifier knows. */
export const BUSY = 'FolderBusy';

/** A loopback server of `root/<bucket>/<key>`; each object's first `busyFirst` GETs are answered busy. */
export interface HttpFolderServer {
  readonly url: string;
  /** busy answers served so far */
  readonly busy: () => number;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** Serves `GET /<bucket>?prefix=p` (a JSON listing) and `GET /<bucket>/<key>` (the bytes) on 127.0.0.1. */
export const startHttpFolderServer = async (root: string, busyFirst: number): Promise<HttpFolderServer> => {
  const gets = new Map<string, number>();
  let busy = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const [bucket, ...key] = url.pathname.slice(1).split('/').map(decodeURIComponent);
    const dir = join(root, bucket ?? '');
    void (async () => {
      if (key.length === 0) {
        const prefix = url.searchParams.get('prefix') ?? '';
        const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
        const entries = await Promise.all(
          files.map(async (d) => {
            const path = join(d.parentPath, d.name);
            return { key: relative(dir, path).split(sep).join('/'), size: (await stat(path)).size };
          }),
        );
        return send(
          res,
          200,
          entries.filter((e) => e.key.startsWith(prefix)),
        );
      }
      const path = join(dir, ...key);
      const seen = (gets.get(path) ?? 0) + 1;
      gets.set(path, seen);
      if (seen <= busyFirst) {
        busy += 1;
        return send(res, 423, { error: BUSY });
      }
      const size = await stat(path).then(
        (s) => s.size,
        () => null,
      );
      if (size === null) return send(res, 404, { error: 'NoSuchKey' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      createReadStream(path).pipe(res);
    })().catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    busy: () => busy,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
