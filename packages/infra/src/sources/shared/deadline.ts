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
