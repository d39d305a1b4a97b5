import { createBackendRegistry, type BackendRegistry } from '@maou/bench-compute';
import { createSourceRegistry, type SourceRegistry } from '@maou/bench-infra';

/**
 * The plug-ins a `maou` run uses: compute backends and datasources. The option tables, `--help`, validation and the
 * container all read them from here; nothing else names a backend or a source.
 * @public
 */
export interface PlugIns {
  readonly backends: BackendRegistry;
  readonly sources: SourceRegistry;
}

/** What this binary ships: infra's registries, one registration line per plug-in. @public */
export const shippedPlugIns = (): PlugIns => ({ backends: createBackendRegistry(), sources: createSourceRegistry() });
