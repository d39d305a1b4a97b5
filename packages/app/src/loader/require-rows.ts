import type { DataSourcePort } from '../ports/data-source.port';

/**
 * Fails, naming the empty files, when a source holds no rows at all: otherwise the run would end in "the training
 * split yields 0 batch(es)", which names neither the data nor what is wrong with it.
 * @public
 */
export const requireRows = async (source: DataSourcePort): Promise<void> => {
  const shards = await source.shards();
  if (shards.some((s) => s.rows > 0)) return;
  const named = shards
    .slice(0, 5)
    .map((s) => s.id)
    .join(', ');
  const more = shards.length > 5 ? ` and ${shards.length - 5} more` : '';
  throw new Error(
    `${source.describe()} holds no rows: ${shards.length ? `every file is empty (${named}${more})` : 'it has no files'}`,
  );
};
