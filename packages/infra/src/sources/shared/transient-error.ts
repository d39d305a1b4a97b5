/** Node socket error codes that mean the connection dropped or never answered, so a retry may succeed. */
const DROPPED = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
]);
/** AWS error names for throttling and server-side failures. */
const AWS_TRANSIENT = new Set([
  'SlowDown',
  'ThrottlingException',
  'Throttling',
  'RequestTimeout',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);

interface ErrorShape {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  status?: unknown;
  transient?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  response?: { status?: unknown; statusCode?: unknown };
  cause?: unknown;
}

/** The HTTP error status (4xx/5xx) an SDK error carries, whichever client threw it. @internal */
export const httpStatusOf = (error: unknown): number | null => {
  const e = (error ?? {}) as ErrorShape;
  const candidates = [e.$metadata?.httpStatusCode, e.response?.status, e.response?.statusCode, e.status, e.code];
  // A body cut after a 200 header leaves status 200 on the error: only error statuses count.
  const found = candidates.find((c) => typeof c === 'number' && c >= 400 && c < 600);
  return typeof found === 'number' ? found : null;
};

/**
 * Whether a failed call is worth another try: throttling (429, 503), any 5xx, request timeouts (408)
 * and connections dropped mid-request. Client errors such as 403/404 are final.
 * @internal
 */
export const isTransient = (error: unknown, depth = 0): boolean => {
  const e = (error ?? {}) as ErrorShape;
  if (e.transient === true) return true;
  const status = httpStatusOf(error);
  if (status !== null) return status === 408 || status === 429 || status >= 500;
  if (typeof e.code === 'string' && DROPPED.has(e.code)) return true;
  if (typeof e.name === 'string' && AWS_TRANSIENT.has(e.name)) return true;
  const msg = typeof e.message === 'string' ? e.message.toLowerCase() : '';
  if (/socket hang up|premature close|aborted|econnreset|other side closed|terminated/.test(msg)) return true;
  return depth < 3 && e.cause !== undefined && isTransient(e.cause, depth + 1);
};

/** A short description of an SDK error for messages and logs; never includes request headers. @internal */
export const describeError = (error: unknown): string => {
  const e = (error ?? {}) as ErrorShape;
  const status = httpStatusOf(error);
  const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name : typeof e.code === 'string' ? e.code : '';
  const msg = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
  return [status !== null ? `HTTP ${status}` : '', name, msg].filter((s) => s !== '').join(': ');
};
