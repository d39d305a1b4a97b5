/** Expected failures travel as values; exceptions are for bugs. @public */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** @public */
export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
/** @public */
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
