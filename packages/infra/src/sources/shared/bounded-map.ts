/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping result order.
 * The first failure stops new work from starting and is rethrown once running calls settle.
 * @internal
 */
export const boundedMap = async <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const i = next;
      next += 1;
      try {
        results[i] = await fn(items[i], i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const n = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: n }, () => worker()));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
};
