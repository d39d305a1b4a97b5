import type { DataSourceSpec } from '@maou/bench-domain';
import type { SourceDefinition } from '../source-definition';
import { LocalFileSourceAdapter } from './local-file-source.adapter';

/** maou's `.feather` and legacy `.npy` files (or directories of them) on this machine. @public */
export const localSource: SourceDefinition<Extract<DataSourceSpec, { kind: 'local' }>> = {
  kind: 'local',
  help: 'local .feather/.npy files or directories (--stage3-data-path and the like)',
  open: async (spec, stage) => new LocalFileSourceAdapter(stage, spec.paths),
};
