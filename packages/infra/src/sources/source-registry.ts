import type { DataSourceSpec, Stage } from '@maou/bench-domain';
import type { DataSourceFactoryPort, DataSourcePort } from '@maou/bench-app';

/** Opens one kind of source. @public */
export type DataSourceOpener<K extends DataSourceSpec['kind']> = (
  spec: Extract<DataSourceSpec, { kind: K }>, stage: Stage, sampleRatio: number | null,
) => Promise<DataSourcePort>;

/** Source kinds are plug-ins: the composition root registers one opener per kind. @public */
export class DataSourceRegistryAdapter implements DataSourceFactoryPort {
  private readonly openers = new Map<string, DataSourceOpener<DataSourceSpec['kind']>>();

  register<K extends DataSourceSpec['kind']>(kind: K, opener: DataSourceOpener<K>): this {
    this.openers.set(kind, opener as unknown as DataSourceOpener<DataSourceSpec['kind']>);
    return this;
  }

  open(spec: DataSourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort> {
    const opener = this.openers.get(spec.kind);
    if (!opener) return Promise.reject(new Error(`no datasource is registered for '${spec.kind}' (registered: ${[...this.openers.keys()].join(', ') || 'none'})`));
    return opener(spec, stage, sampleRatio);
  }
}
