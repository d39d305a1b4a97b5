import type { DataSourceSpec, Stage } from '@maou/bench-domain';
import type { DataSourceFactoryPort, DataSourcePort, SourceChoice, SourceFlag } from '@maou/bench-use-cases';
import type { SourceContext, SourceDefinition } from './source-definition';

/**
 * Source kinds are plug-ins: one definition per kind. The registry hands their choices (flags, parsers) to the
 * command line and opens a spec by the kind it names. A flag two plug-ins share must be the same declaration.
 * @public
 */
export class SourceRegistry {
  private readonly definitions = new Map<string, SourceDefinition<DataSourceSpec>>();
  private readonly flags = new Map<string, SourceFlag>();

  register<S extends DataSourceSpec>(definition: SourceDefinition<S>): this {
    if (this.definitions.has(definition.kind)) throw new Error(`datasource '${definition.kind}' is registered twice`);
    for (const [name, flag] of Object.entries(definition.flags)) {
      const known = this.flags.get(name);
      if (known && known !== flag)
        throw new Error(`datasource '${definition.kind}' declares --${name} again; share the one declaration`);
    }
    for (const [name, flag] of Object.entries(definition.flags)) this.flags.set(name, flag);
    // Sound: open() hands a definition only specs of its own kind.
    this.definitions.set(definition.kind, definition as unknown as SourceDefinition<DataSourceSpec>);
    return this;
  }

  /** The registered plug-ins, in registration order, as the command line sees them. */
  choices(): readonly SourceChoice[] {
    return [...this.definitions.values()];
  }

  /** The registered kinds with their help text, in registration order. */
  describe(): { readonly kind: string; readonly help: string }[] {
    return [...this.definitions.values()].map(({ kind, help }) => ({ kind, help }));
  }

  get(kind: string): SourceDefinition<DataSourceSpec> | undefined {
    return this.definitions.get(kind);
  }

  kinds(): string[] {
    return [...this.definitions.keys()];
  }
}

/** Opens a spec with the plug-in of its kind, reporting to this container's logger, clock and progress. @public */
export class DataSourceRegistryAdapter implements DataSourceFactoryPort {
  constructor(
    private readonly registry: SourceRegistry,
    private readonly context: SourceContext,
  ) {}

  open(spec: DataSourceSpec, stage: Stage, sampleRatio: number | null): Promise<DataSourcePort> {
    const definition = this.registry.get(spec.kind);
    if (!definition)
      return Promise.reject(
        new Error(
          `no datasource is registered for '${spec.kind}' (registered: ${this.registry.kinds().join(', ') || 'none'})`,
        ),
      );
    return definition.open(spec, stage, sampleRatio, this.context);
  }
}
