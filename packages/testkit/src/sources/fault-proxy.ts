import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to one request instead of (or while) forwarding it. */
export type Fault =
  /** an error answer; `body` replaces the generic JSON one (a store's own error document, with its code or reason) */
  | { readonly status: number; readonly body?: { readonly type: string; readonly text: string } }
  | { readonly cutAfterBytes: number }
  | { readonly stall: true }
  | { readonly reset: true }
  /** the real answer, forwarded only after this long (a slow but correct server) */
  | { readonly delayMs: number };

/** Applies `fault` to the next `times` requests that `match`. */
export interface FaultRule {
  readonly match: (method: string, url: string) => boolean;
  times: number;
  readonly fault: Fault;
}

/**
 * A loopback HTTP proxy in front of a real server that injects 5xx/429 answers, resets, stalls, slow answers and
 * connections cut mid-body.
 */
export interface FaultProxy {
  readonly url: string;
  readonly rules: FaultRule[];
  /** requests seen, in order, as "METHOD url" */
  readonly seen: string[];
  /** faults applied so far, in order */
  readonly injected: Fault[];
  close(): Promise<void>;
}

const answerWithStatus = (res: ServerResponse, status: number, own?: { type: string; text: string }): void => {
  const body = own?.text ?? JSON.stringify({ error: { code: status, message: `injected ${status}` } });
  res.writeHead(status, {
    'content-type': own?.type ?? 'application/json',
    'content-length': Buffer.byteLength(body),
    'retry-after': '0',
  });
  res.end(body);
};

const forward = (req: IncomingMessage, res: ServerResponse, target: AddressInfo, cutAfter: number | null): void => {
  const up = request(
    { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers },
    (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      if (cutAfter === null) {
        upRes.pipe(res);
        return;
      }
      let sent = 0;
      upRes.on('data', (chunk: Buffer) => {
        if (sent >= cutAfter) return;
        const part = chunk.subarray(0, cutAfter - sent);
        sent += part.length;
        res.write(part);
        // Drop the socket once the allowance is sent: the client sees a truncated body.
        if (sent >= cutAfter) setImmediate(() => res.socket?.destroy());
      });
    },
  );
  up.on('error', () => res.socket?.destroy());
  req.pipe(up);
};

/** Starts the proxy on 127.0.0.1 with a random port, forwarding to `target` on loopback. */
export const startFaultProxy = async (target: AddressInfo): Promise<FaultProxy> => {
  const rules: FaultRule[] = [];
  const seen: string[] = [];
  const injected: Fault[] = [];
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    seen.push(`${method} ${url}`);
    const rule = rules.find((r) => r.times > 0 && r.match(method, url));
    if (rule !== undefined) {
      rule.times -= 1;
      injected.push(rule.fault);
    }
    if (rule !== undefined && 'reset' in rule.fault) {
      // The connection drops before any answer, as when a load balancer resets it.
      req.socket.destroy();
      return;
    }
    if (rule !== undefined && 'stall' in rule.fault) {
      // Accept the request and never answer; close() drops the socket.
      req.resume();
      return;
    }
    if (rule !== undefined && 'status' in rule.fault) {
      req.resume();
      answerWithStatus(res, rule.fault.status, rule.fault.body);
      return;
    }
    if (rule !== undefined && 'delayMs' in rule.fault) {
      setTimeout(() => forward(req, res, target, null), rule.fault.delayMs);
      return;
    }
    forward(req, res, target, rule !== undefined && 'cutAfterBytes' in rule.fault ? rule.fault.cutAfterBytes : null);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rules,
    seen,
    injected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
