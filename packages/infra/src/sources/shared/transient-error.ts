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
interface ErrorShape {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  status?: unknown;
  transient?: unknown;
  errors?: unknown;
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

/** Whether a failed call of one store is worth another try. @public */
export type TransientClassifier = (error: unknown) => boolean;

/**
 * A store's classifier: first its own errors that mean "try again" (`own`, which knows its client's names and
 * codes), then what every HTTP store shares: this package's transient marks (deadlines, cut bodies), throttling and
 * server statuses (408, 429, any 5xx) and connections dropped mid-request. Other client errors (403, 404) are final.
 * Causes are followed three deep.
 * @public
 */
export const transientClassifier = (own: TransientClassifier = () => false): TransientClassifier => {
  const check = (error: unknown, depth: number): boolean => {
    const e = (error ?? {}) as ErrorShape;
    if (e.transient === true || own(error)) return true;
    const status = httpStatusOf(error);
    if (status !== null) return status === 408 || status === 429 || status >= 500;
    if (typeof e.code === 'string' && DROPPED.has(e.code)) return true;
    const msg = typeof e.message === 'string' ? e.message.toLowerCase() : '';
    if (/socket hang up|premature close|aborted|econnreset|other side closed|terminated/.test(msg)) return true;
    return depth < 3 && e.cause !== undefined && check(e.cause, depth + 1);
  };
  return (error) => check(error, 0);
};

/** The `name` an error carries (SDKs name their error kinds there), or ''. @internal */
export const errorName = (error: unknown): string => {
  const name = ((error ?? {}) as ErrorShape).name;
  return typeof name === 'string' ? name : '';
};

/** The reasons a JSON API error lists (`errors: [{ reason }]`, as Google's APIs answer). @internal */
export const errorReasons = (error: unknown): string[] => {
  const errors = ((error ?? {}) as ErrorShape).errors;
  return Array.isArray(errors)
    ? errors.flatMap((x: { reason?: unknown } | null) => (typeof x?.reason === 'string' ? [x.reason] : []))
    : [];
};

/** A short description of an SDK error for messages and logs; never includes request headers. @internal */
export const describeError = (error: unknown): string => {
  const e = (error ?? {}) as ErrorShape;
  const status = httpStatusOf(error);
  const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name : typeof e.code === 'string' ? e.code : '';
  const msg = typeof e.message === 'string' ? e.message.split('\n')[0] : String(error);
  return [status !== null ? `HTTP ${status}` : '', name, msg].filter((s) => s !== '').join(': ');
};
