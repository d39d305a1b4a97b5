import { MemoryLogger, RecordingProgress } from '@maou/bench-app/testing';
import type { DataSourcePort } from '@maou/bench-app';
import type { DataSourceSpec } from '@maou/bench-domain';
import { SystemClockAdapter } from '../clock/system-clock.adapter';
import { createSourceRegistry } from './register-sources';
import { localSource } from './local/local.source';
import type { SourceContext, SourceDefinition } from './source-definition';

type LocalSpec = Extract<DataSourceSpec, { kind: 'local' }>;
import { DataSourceRegistryAdapter } from './source-registry';

describe('DataSourceRegistryAdapter', () => {
  const context: SourceContext = {
    logger: new MemoryLogger(),
    clock: new SystemClockAdapter(),
    progress: new RecordingProgress(),
  };
  const source = { stage: 3, describe: () => 'local' } as unknown as DataSourcePort;

  it('given a registered kind, then its definition receives the spec, stage, ratio and the context', async () => {
    const seen: unknown[] = [];
    const recording: SourceDefinition<LocalSpec> = {
      ...localSource,
      open: async (spec, stage, ratio, ctx) => {
        seen.push(spec.paths, stage, ratio, ctx);
        return source;
      },
    };
    const local: LocalSpec = { kind: 'local', paths: ['a.feather'] };
    await expect(new DataSourceRegistryAdapter(context).register(recording).open(local, 3, null)).resolves.toBe(source);
    expect(seen).toEqual([['a.feather'], 3, null, context]);
  });

  it('given an unregistered kind, then the error names it and what is registered', async () => {
    const registry = new DataSourceRegistryAdapter(context).register(localSource);
    const bigquery: DataSourceSpec = {
      kind: 'bigquery',
      datasetId: 'd',
      tableName: 't',
      batchSize: 1,
      maxCachedBytes: 1,
      seed: 1,
    };
    await expect(registry.open(bigquery, 3, null)).rejects.toThrow(
      "no datasource is registered for 'bigquery' (registered: local)",
    );
  });

  it('given the shipped registry, then every kind a spec can name is there once, with its help text', () => {
    const kinds: DataSourceSpec['kind'][] = ['local', 'sample', 's3', 'gcs', 'bigquery'];
    const described = createSourceRegistry(context).describe();
    expect(described.map((d) => d.kind)).toEqual(kinds);
    for (const d of described) expect(d.help).toMatch(/\w/);
    expect(() => new DataSourceRegistryAdapter(context).register(localSource).register(localSource)).toThrow(
      /datasource 'local' is registered twice/,
    );
  });
});
