import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The slice of the GCS JSON API the storage client uses here: objects.list (paged) and media download. */
export interface FakeGcsServer {
  readonly address: AddressInfo;
  readonly url: string;
  put(key: string, body: Uint8Array): void;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): [number, Record<string, string>, string] => [
  status,
  { 'content-type': 'application/json; charset=UTF-8' },
  JSON.stringify(body),
];

/** Starts on 127.0.0.1 with a random port; `pageSize` is small so the client has to follow page tokens. */
export const startFakeGcs = async (bucket: string, pageSize = 2): Promise<FakeGcsServer> => {
  const objects = new Map<string, Uint8Array>();
  const listPath = `/storage/v1/b/${bucket}/o`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let reply: [number, Record<string, string>, string | Uint8Array];
    if (req.method === 'GET' && url.pathname === listPath) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      const start = Number(url.searchParams.get('pageToken') ?? '0');
      const page = keys.slice(start, start + pageSize);
      const items = page.map((name) => ({
        kind: 'storage#object',
        bucket,
        name,
        size: String(objects.get(name)?.length ?? 0),
      }));
      const next = start + pageSize < keys.length ? { nextPageToken: String(start + pageSize) } : {};
      reply = json(200, { kind: 'storage#objects', items, ...next });
    } else if (
      req.method === 'GET' &&
      url.pathname.startsWith(`${listPath}/`) &&
      url.searchParams.get('alt') === 'media'
    ) {
      const body = objects.get(decodeURIComponent(url.pathname.slice(listPath.length + 1)));
      reply =
        body === undefined
          ? json(404, { error: { code: 404, message: 'No such object' } })
          : [200, { 'content-type': 'application/octet-stream' }, body];
    } else {
      reply = json(404, { error: { code: 404, message: `not served by the fake: ${req.method} ${url.pathname}` } });
    }
    const [status, headers, body] = reply;
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    address,
    url: `http://127.0.0.1:${address.port}`,
    put: (key, body) => {
      objects.set(key, body);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
