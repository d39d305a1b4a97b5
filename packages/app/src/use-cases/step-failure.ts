import { err, ok, type Result } from '@maou/bench-domain';

/** An expected failure of one step of a use case; `message` names the file, flag or tensor. @public */
export interface StepError<K extends string = string> {
  readonly kind: K;
  readonly message: string;
}

/** Carries a typed error out of nested steps to the use case boundary. @public */
export class StepFailure<E extends StepError = StepError> extends Error {
  constructor(readonly error: E) {
    super(error.message);
  }
}

/** Errors JavaScript raises for code that is wrong, never for bad input: a bug, whatever step it happened in. */
const isProgrammingError = (e: unknown): boolean => e instanceof TypeError || e instanceof ReferenceError;

/**
 * Runs a step, turning a thrown error into a failure of that step's kind. A programming error (TypeError,
 * ReferenceError) is not the step's failure: it propagates as the bug it is; an inner step's failure passes as it is.
 * @public
 */
export const during = async <K extends string, T>(kind: K, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (cause) {
    // A failure an inner step already named (a loader's read inside the training step) keeps its kind.
    if (isProgrammingError(cause) || cause instanceof StepFailure) throw cause;
    throw new StepFailure({ kind, message: cause instanceof Error ? cause.message : String(cause) });
  }
};

/** The use case boundary: a step failure becomes an error value, anything else is a bug and propagates. @public */
export const settleSteps = async <T, E extends StepError>(run: () => Promise<T>): Promise<Result<T, E>> => {
  try {
    return ok(await run());
  } catch (e) {
    if (e instanceof StepFailure) return err(e.error as E);
    throw e;
  }
};
