import { createBackendRegistry, type BackendRegistry } from '@maou/bench-compute';
import { createSourceRegistry, type SourceRegistry } from '@maou/bench-infra';

/**
 * The plug-ins a `maou` run uses: compute backends and datasources. The option tables, `--help`, validation and the
 * container all read them from here: a plug-in's name is tested only in its own folder, everything else reads its
 * capabilities (`pnpm deps:check`).
 * @public
 */
export interface PlugIns {
  readonly backends: BackendRegistry;
  readonly sources: SourceRegistry;
}

/** What this binary ships: compute's backends and infra's sources, one registration line per plug-in. @public */
export const shippedPlugIns = (): PlugIns => ({ backends: createBackendRegistry(), sources: createSourceRegistry() });
