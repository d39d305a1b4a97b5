import type { HostBatch } from '@maou/bench-domain';
import { during } from '../use-cases/step-failure';

/**
 * A pass's batches, with a read that fails reported as the data's failure (`datasource`: the message names the file,
 * record batch, column and row), not as the training step's, whichever step is pulling batches when it happens.
 */
export const readFailuresAsDatasource = (batches: AsyncIterator<HostBatch>): AsyncIterableIterator<HostBatch> => {
  const wrapped: AsyncIterableIterator<HostBatch> = {
    next: () => during('datasource', () => batches.next()),
    return: async (value?: unknown) => (await batches.return?.(value)) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => wrapped,
  };
  return wrapped;
};
