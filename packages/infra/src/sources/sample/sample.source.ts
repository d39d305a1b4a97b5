import { sampleDataProgress } from '@maou/bench-app';
import type { DataSourceSpec } from '@maou/bench-domain';
import { ensureSampleDataset } from '../../sample-data/ensure-sample-dataset';
import { LocalFileSourceAdapter } from '../local/local-file-source.adapter';
import type { SourceDefinition } from '../source-definition';

/** The embedded sample data: generated once into the cache directory, then reused. @public */
export const sampleSource: SourceDefinition<Extract<DataSourceSpec, { kind: 'sample' }>> = {
  kind: 'sample',
  help: 'the embedded sample data (no data flag given; --sample-positions)',
  async open(spec, stage, _sampleRatio, { progress }) {
    const dir = `${spec.cacheDir}/stage${stage}-${spec.positions}-seed${spec.seed}`;
    // A reused cache never calls onProgress, so no task (and no line) appears then.
    const generation = sampleDataProgress(progress, `sample data (stage ${stage})`);
    try {
      const files = await ensureSampleDataset({
        stage,
        dir,
        positions: spec.positions,
        seed: spec.seed,
        onProgress: generation.onProgress,
      });
      generation.finish();
      return new LocalFileSourceAdapter(stage, files);
    } catch (e) {
      generation.finish('failed');
      throw e;
    }
  },
};
