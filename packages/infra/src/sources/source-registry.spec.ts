import { MemoryLogger, RecordingProgress } from '@maou/bench-use-cases/testing';
import type { DataSourcePort } from '@maou/bench-use-cases';
import type { DataSourceSpec } from '@maou/bench-domain';
import { SystemClockAdapter } from '../clock/system-clock.adapter';
import { createSourceRegistry } from './register-sources';
import { localSource, type LocalSpec } from './local/local.source';
import type { SourceContext, SourceDefinition } from './source-definition';

import { DataSourceRegistryAdapter, SourceRegistry } from './source-registry';

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
    const local: LocalSpec = {
      kind: 'local',
      label: 'local files',
      sampled: false,
      streamable: true,
      paths: ['a.feather'],
    };
    await expect(
      new DataSourceRegistryAdapter(new SourceRegistry().register(recording), context).open(local, 3, null),
    ).resolves.toBe(source);
    expect(seen).toEqual([['a.feather'], 3, null, context]);
  });

  it('given an unregistered kind, then the error names it and what is registered', async () => {
    const registry = new DataSourceRegistryAdapter(new SourceRegistry().register(localSource), context);
    const bigquery: DataSourceSpec = { kind: 'bigquery', label: 'BigQuery', sampled: true, streamable: false };
    await expect(registry.open(bigquery, 3, null)).rejects.toThrow(
      "no datasource is registered for 'bigquery' (registered: local)",
    );
  });

  it('given the shipped registry, then every kind a spec can name is there once, with its help text', () => {
    const kinds = ['local', 'sample', 's3', 'gcs', 'bigquery'];
    const described = createSourceRegistry().describe();
    expect(described.map((d) => d.kind)).toEqual(kinds);
    for (const d of described) expect(d.help).toMatch(/\w/);
    expect(() => new SourceRegistry().register(localSource).register(localSource)).toThrow(
      /datasource 'local' is registered twice/,
    );
    // A flag two plug-ins read is one declaration; a second, different one is refused.
    const clash: SourceDefinition<LocalSpec> = {
      ...localSource,
      kind: 'other' as 'local',
      flags: { 'stage3-data-path': { type: 'string', describe: 'x' } },
    };
    expect(() => new SourceRegistry().register(localSource).register(clash)).toThrow(
      "datasource 'other' declares --stage3-data-path again; share the one declaration",
    );
  });
});
