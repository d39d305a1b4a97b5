import type { LoggerPort } from '@maou/bench-use-cases';
import { describeError, type TransientClassifier } from './transient-error';

/** How often and how patiently a cloud call is retried. @public */
export interface RetryPolicy {
  /** total tries, the first one included */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Five tries, 200 ms doubling up to 10 s, with full jitter. @public */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

/** Side effects a retry loop needs, passed in so tests can run without waiting. @internal */
export interface RetryHooks {
  readonly sleep: (ms: number) => Promise<void>;
  /** uniform in [0, 1), for jitter */
  readonly random: () => number;
  readonly onRetry: (attempt: number, delayMs: number, error: unknown) => void;
}

/** Thrown after the last try; `what` names the bucket/object or table/page. @public */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`${what}: failed after ${attempts} ${attempts === 1 ? 'try' : 'tries'}: ${describeError(lastError)}`);
    this.name = 'RetriesExhaustedError';
  }
}

/** "Full jitter" back-off: a uniform delay below the exponential cap, so clients that failed together spread out. */
export const backoffDelay = (attempt: number, policy: RetryPolicy, random: () => number): number =>
  Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)));

/**
 * Runs `op` until it succeeds, an error its store's classifier calls final occurs, or the tries run out.
 * Final errors are rethrown unchanged, the last transient one is wrapped in {@link RetriesExhaustedError}.
 * @internal
 */
export const withRetry = async <T>(
  what: string,
  op: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  isTransient: TransientClassifier,
  hooks: RetryHooks,
): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await op(attempt);
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (attempt >= policy.attempts) throw new RetriesExhaustedError(what, attempt, error);
      const delay = backoffDelay(attempt, policy, hooks.random);
      hooks.onRetry(attempt, delay, error);
      await hooks.sleep(delay);
    }
  }
};

/** Real timers and Math.random, for production wiring. @internal */
export const systemRetryHooks = (onRetry: RetryHooks['onRetry']): RetryHooks => ({
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  onRetry,
});

/**
 * A cloud source's retry loop over its store's classifier: each retry counted in its I/O statistics and logged as a
 * warning naming `what`; `hooks` (tests) replace the timers and the jitter.
 * @internal
 */
export const withCountedRetry = <T>(
  what: string,
  op: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  isTransient: TransientClassifier,
  seen: { readonly stats: { retry(): void }; readonly log: Pick<LoggerPort, 'warn'> },
  hooks?: Partial<Pick<RetryHooks, 'sleep' | 'random'>>,
): Promise<T> => {
  const onRetry: RetryHooks['onRetry'] = (attempt, delayMs, error) => {
    seen.stats.retry();
    seen.log.warn({ what, attempt, delayMs, error: describeError(error) }, 'transient failure, retrying');
  };
  return withRetry(what, op, policy, isTransient, { ...systemRetryHooks(onRetry), ...hooks });
};
