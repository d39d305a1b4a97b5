/**
 * Rejects with `onTimeout()` when `p` has not settled within `ms` (a server that accepts but never answers).
 * The late result, if any, is dropped.
 * @internal
 */
export const withDeadline = <T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
};

/** A call that got no answer in time; worth another try. @internal */
export class DeadlineExceededError extends Error {
  readonly transient = true;
  constructor(what: string, ms: number) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = 'DeadlineExceededError';
  }
}

/** `--input-request-timeout`'s default, in seconds. @internal */
export const DEFAULT_REQUEST_TIMEOUT_S = 60;

/** A request that got no answer within its whole budget; final (no further try). @internal */
export class RequestDeadlineError extends Error {
  constructor(what: string, endpoint: string, ms: number, tries: number) {
    super(
      `${what}: no answer from ${endpoint} in ${ms / 1000} s (${tries} ${tries === 1 ? 'try' : 'tries'}; the limit is --input-request-timeout, default ${DEFAULT_REQUEST_TIMEOUT_S} s)`,
    );
    this.name = 'RequestDeadlineError';
  }
}

/**
 * One request's patience across all its tries: each try waits for an answer at most its own limit and what is left,
 * and only a wait that got no answer uses the budget up. A server that accepts connections and never answers then
 * fails the request once, after the budget, instead of after every try's full limit.
 * @internal
 */
export class AnswerBudget {
  private leftMs: number;
  private tries = 0;

  constructor(
    private readonly what: string,
    private readonly endpoint: string,
    private readonly totalMs: number,
  ) {
    this.leftMs = totalMs;
  }

  /**
   * The answer of one try (`start`), or `onTryTimeout()` (this try gave up, the next may succeed), or the request's
   * final failure. A try that gives up is aborted through its signal, so its socket does not keep the process alive.
   */
  wait<T>(
    start: (signal: AbortSignal) => Promise<T>,
    tryMs: number,
    onTryTimeout: () => Error,
    /** a later wait of the same try (its first byte after its headers): not counted as another try */
    sameTry = false,
  ): Promise<T> {
    if (this.leftMs <= 0) return Promise.reject(this.exceeded());
    const ms = Math.min(tryMs, this.leftMs);
    if (!sameTry) this.tries += 1;
    const abort = new AbortController();
    const answer = start(abort.signal);
    return withDeadline(answer, ms, () => {
      this.leftMs -= ms;
      abort.abort();
      answer.catch(() => undefined);
      return this.leftMs <= 0 ? this.exceeded() : onTryTimeout();
    });
  }

  private exceeded(): RequestDeadlineError {
    return new RequestDeadlineError(this.what, this.endpoint, this.totalMs, this.tries);
  }
}
