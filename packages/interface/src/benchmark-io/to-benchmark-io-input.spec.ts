import { GENERATE_SAMPLE_DATA_OPTIONS } from '../generate-sample-data/generate-sample-data.options';
import { toGenerateSampleDataInput } from '../generate-sample-data/to-generate-sample-data-input';
import { toBenchmarkIoInput } from './to-benchmark-io-input';

describe('toBenchmarkIoInput and toGenerateSampleDataInput', () => {
  it('given bad benchmark-io flags, then each is named', () => {
    const r = toBenchmarkIoInput({ stage: 4, rows: 0, repeats: 101, seed: -1 });
    expect(r.ok ? [] : r.error.map((i) => i.field)).toEqual(['--stage', '--rows', '--repeats', '--seed']);
  });

  it('given good benchmark-io flags, then the stage is narrowed and an empty --formats means all', () => {
    expect(toBenchmarkIoInput({ stage: 2, rows: 5, repeats: 1, seed: 0, formats: [] })).toEqual({
      ok: true,
      value: { stage: 2, rows: 5, repeats: 1, seed: 0, formats: null },
    });
  });

  it('given bad generate-sample-data flags, then each is named', () => {
    const r = toGenerateSampleDataInput({ stage: 4, positions: 0, outputDir: ' ', seed: -1, rowsPerFile: 1.5 });
    expect(r.ok ? [] : r.error.map((i) => i.field)).toEqual([
      '--stage',
      '--positions',
      '--output-dir',
      '--seed',
      '--rows-per-file',
    ]);
  });

  it("given good generate-sample-data flags, then the table's seed (0) and maou's file size are the defaults", () => {
    // yargs fills a flag's default from the table, as it does here
    const seed = GENERATE_SAMPLE_DATA_OPTIONS.seed.default;
    expect(toGenerateSampleDataInput({ stage: 3, positions: 10, outputDir: '/tmp/x', seed })).toEqual({
      ok: true,
      value: { stage: 3, positions: 10, outputDir: '/tmp/x', seed: 0, rowsPerFile: null },
    });
  });
});
