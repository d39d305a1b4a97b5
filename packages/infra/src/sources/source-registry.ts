import type { Stage } from '@maou/bench-domain';
import type { DataSourceFactoryPort, DataSourcePort } from '@maou/bench-app';
import type { SourceContext, SourceDefinition, SourceSpec } from './source-definition';

/** Source kinds are plug-ins: one definition per kind, opened by the kind a spec names. @public */
export class DataSourceRegistryAdapter implements DataSourceFactoryPort {
  private readonly definitions = new Map<string, SourceDefinition<SourceSpec>>();

  constructor(private readonly context: SourceContext) {}

  register<S extends SourceSpec>(definition: SourceDefinition<S>): this {
    if (this.definitions.has(definition.kind)) throw new Error(`datasource '${definition.kind}' is registered twice`);
    // Sound: open() hands a definition only specs of its own kind.
    this.definitions.set(definition.kind, definition as unknown as SourceDefinition<SourceSpec>);
    return this;
  }

  /** The registered kinds with their help text, in registration order. */
  describe(): { readonly kind: string; readonly help: string }[] {
    return [...this.definitions.values()].map(({ kind, help }) => ({ kind, help }));
  }

  open(spec: SourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort> {
    const definition = this.definitions.get(spec.kind);
    if (!definition)
      return Promise.reject(
        new Error(
          `no datasource is registered for '${spec.kind}' (registered: ${[...this.definitions.keys()].join(', ') || 'none'})`,
        ),
      );
    return definition.open(spec, stage, sampleRatio, this.context);
  }
}
