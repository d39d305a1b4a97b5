/** Where a run failed; each carries the underlying message (which names the file, flag or tensor). @public */
export type BenchmarkTrainingError =
  | { readonly kind: 'backend-unavailable'; readonly message: string }
  | { readonly kind: 'datasource'; readonly message: string }
  | { readonly kind: 'too-few-batches'; readonly message: string }
  | { readonly kind: 'training-failed'; readonly message: string };

/** Runs a step of the use case, turning a thrown error into the error kind of that step. */
export const during = async <T>(kind: BenchmarkTrainingError['kind'], work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (cause) {
    throw new StepFailure({ kind, message: cause instanceof Error ? cause.message : String(cause) });
  }
};

/** Carries a typed error out of nested steps to the use case boundary. */
export class StepFailure extends Error {
  constructor(readonly error: BenchmarkTrainingError) {
    super(error.message);
  }
}
