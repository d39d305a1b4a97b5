import type { DataSourcePort } from '@maou/bench-app';
import { DataSourceRegistryAdapter } from './source-registry';

describe('DataSourceRegistryAdapter', () => {
  const source = { stage: 3, describe: () => 'local' } as unknown as DataSourcePort;

  it('given a registered kind, then its opener receives the spec, stage and ratio', async () => {
    const seen: unknown[] = [];
    const registry = new DataSourceRegistryAdapter().register('local', async (spec, stage, ratio) => {
      seen.push(spec.paths, stage, ratio);
      return source;
    });
    await expect(registry.open({ kind: 'local', paths: ['a.feather'] }, 3, null)).resolves.toBe(source);
    expect(seen).toEqual([['a.feather'], 3, null]);
  });

  it('given an unregistered kind, then the error names it and what is registered', async () => {
    const registry = new DataSourceRegistryAdapter().register('local', async () => source);
    await expect(registry.open({ kind: 'bigquery', datasetId: 'd', tableName: 't', batchSize: 1, maxCachedBytes: 1, seed: 1 }, 3, null))
      .rejects.toThrow("no datasource is registered for 'bigquery' (registered: local)");
  });
});
