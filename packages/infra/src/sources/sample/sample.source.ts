import { sampleDataProgress, type SourceFlag } from '@maou/bench-use-cases';
import type { DataSourceSpec } from '@maou/bench-domain';
import { sampleGenerationHeap } from '@maou/bench-host';
import { ensureSampleDataset } from '../../sample-data/ensure-sample-dataset';
import { FileError } from '../../files/file-error';
import { LocalFileSourceAdapter } from '../local/local-file-source.adapter';
import type { SourceDefinition } from '../source-definition';
import { numberFlag } from '../shared/source-flags';

/** The embedded sample data's spec. @public */
export interface SampleSpec extends DataSourceSpec {
  readonly kind: 'sample';
  readonly cacheDir: string;
  readonly positions: number;
  readonly seed: number;
}

const FLAGS = {
  'sample-positions': {
    type: 'number',
    describe: 'positions in the embedded sample dataset when no data is given, 16 to 1,000,000',
    bounds: { min: 16, max: 1e6, integer: true },
    default: 4096,
  },
  'sample-cache-dir': {
    type: 'string',
    describe: 'where the embedded sample dataset is generated and reused',
  },
} as const satisfies Record<string, SourceFlag>;

/** The embedded sample data: the source of a run that names none; generated once into the cache, then reused. @public */
export const sampleSource: SourceDefinition<SampleSpec> = {
  kind: 'sample',
  help: 'the embedded sample data (when no datasource flag is given)',
  flags: FLAGS,
  selectedBy: [],
  parse(flags, { stage, seed, cache }) {
    const given = flags.sampleCacheDir as string | undefined;
    const cacheDir = given ?? cache.dir;
    const positions = numberFlag(flags, FLAGS, 'sample-positions');
    return {
      warnings: [
        `no data given (no --stage${stage}-data-path, no cloud source): using the embedded sample data, ${positions} positions from random legal games (seed ${seed})`,
      ],
      spec: {
        kind: 'sample',
        label: 'the embedded sample data',
        sampled: false,
        streamable: true,
        synthetic: true,
        // its cache is what the run reads: an output there would be read as data next time
        reads: [cacheDir],
        writes: { field: given !== undefined ? '--sample-cache-dir' : cache.origin, dir: cacheDir },
        // generated in this process when the cache does not hold it
        heapNeed: { bytes: sampleGenerationHeap(positions), what: `generating the ${positions}-position sample data` },
        cacheDir,
        positions,
        seed,
      },
    };
  },
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
      // where the cache goes is the user's to choose: say how
      if (e instanceof FileError && e.code !== undefined)
        throw new FileError(
          e.path,
          e.code,
          `${e.reason} (the sample cache: --sample-cache-dir or MAOU_BENCH_CACHE puts it elsewhere)`,
        );
      throw e;
    }
  },
};
