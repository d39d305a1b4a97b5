import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceOptions, toBenchmarkConfig } from '@maou/bench-interface';
import { runOutputIssues } from './output/run-output-checks';
import { shippedPlugIns } from './plug-ins';

// The shipped datasource plug-ins as the command line meets them: each one's flags parsed by its own parser, the
// interface picking one of them by the flags given. (Moved from interface's spec: interface may not import infra.)
const plugIns = shippedPlugIns();
const defaults = {
  sources: plugIns.sources.choices(),
  cache: { dir: '/tmp/sample', origin: 'the sample cache (default)' },
  workers: 1,
  batchSize: 256,
  backends: plugIns.backends.byPriority(),
};
type Raw = Parameters<typeof toBenchmarkConfig>[0] & Readonly<Record<string, unknown>>;
const issuesOf = (raw: Raw): string[] => {
  const r = toBenchmarkConfig(raw, defaults);
  return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
};

describe('the shipped datasource plug-ins through toBenchmarkConfig', () => {
  it.each<[Raw, RegExp]>([
    [
      { stage1DataPath: ['s1.feather'] },
      /^--stage1-data-path: given, but --stage is 3: pass --stage 1 to benchmark these files/,
    ],
    [{ stage: 2, stage3DataPath: ['s3.feather'] }, /^--stage3-data-path: given, but --stage is 2: pass --stage 3/],
    [{ inputS3: true, inputGcs: true }, /^--input-gcs: cannot be combined with --input-s3 \(Amazon S3/],
    [{ inputS3: true }, /^--input-bucket-name: required with --input-s3/],
    [
      { stage3DataPath: ['a.feather'], inputDatasetId: 'd', inputTableName: 't' },
      /^--input-dataset-id: cannot be combined with --stage3-data-path/,
    ],
    [{ stage: 1, inputGcs: true }, /^--input-gcs: Google Cloud Storage holds Stage 3 data; use --stage 3/],
    [{ samplePositions: 1e12 }, /^--sample-positions: must be an integer from 16 to 1,000,000/],
    [{ inputMaxWorkers: 0, inputS3: true }, /^--input-max-workers: must be an integer from 1 to 256, got 0/],
    [
      { inputDatasetId: 'a.b; DROP', inputTableName: 't' },
      /^--input-dataset-id: "a.b; DROP" is not a valid dataset id/,
    ],
    [{ inputDatasetId: 'd', inputTableName: 't`x' }, /^--input-table-name: "t`x" is not a valid table name/],
    [
      { inputDatasetId: 'd', inputTableName: 't', inputClusteringKey: '1col' },
      /^--input-clustering-key: "1col" is not a valid column name/,
    ],
  ])('given %p, then the issue names the flag', (raw, expected) => {
    expect(issuesOf(raw)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });

  // a data path must exist to be parsed (a missing one is a usage error)
  const s3 = join(mkdtempSync(join(tmpdir(), 'maou-plug-ins-')), 's3.feather');
  writeFileSync(s3, '');
  it.each<[Raw, string]>([
    [{ sampleRatio: 0.5 }, 'the embedded sample data'],
    [{ sampleRatio: 0.5, stage3DataPath: [s3] }, 'local files'],
  ])('given %p, then a note says the ratio is ignored (maou warns too), never silently', (raw, label) => {
    const r = toBenchmarkConfig(raw, defaults);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.warnings).toContain(
      `--sample-ratio only samples cloud sources, so it has no effect on ${label} (read whole)`,
    );
  });

  it('given no source flag, then the embedded sample data in the cache, with a note; its cache is what the run writes', () => {
    const r = toBenchmarkConfig({}, defaults);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.config.source).toMatchObject({
      kind: 'sample',
      cacheDir: '/tmp/sample',
      positions: 4096,
      synthetic: true,
      writes: { field: 'the sample cache (default)', dir: '/tmp/sample' },
    });
    expect(r.value.warnings.join('\n')).toMatch(
      /^no data given \(no --stage3-data-path, no cloud source\): using the embedded sample data, 4096 positions/,
    );
  });

  const s3Flags: Raw = {
    inputS3: true,
    inputBucketName: 'b',
    inputPrefix: 'p',
    inputDataName: 'd',
    inputLocalCacheDir: '/c',
  };

  it('builds S3 and BigQuery sources from their flags; --seed reaches the sampler through the spec', () => {
    const s3 = toBenchmarkConfig(s3Flags, defaults);
    if (!s3.ok) throw new Error('expected ok');
    expect(s3.value.config.source).toMatchObject({ kind: 's3', bucket: 'b', maxWorkers: 8, seed: 1, sampled: true });
    const bqFlags: Raw = { inputDatasetId: 'ds', inputTableName: 'tb', seed: 7 };
    const bq = toBenchmarkConfig(bqFlags, defaults);
    if (!bq.ok) throw new Error('expected ok');
    expect(bq.value.config.source).toMatchObject({
      kind: 'bigquery',
      batchSize: 10000,
      maxCachedBytes: 524288000,
      seed: 7,
    });
  });

  it("given BigQuery's --input-max-cached-bytes with S3, then accepted with a note that it has no effect there", () => {
    const r = toBenchmarkConfig({ ...s3Flags, inputMaxCachedBytes: 2 ** 20 } as Raw, defaults);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.warnings).toContain(
      '--input-max-cached-bytes has no effect on S3: it applies to a BigQuery table only',
    );
  });

  it('given a flag several plug-ins read, then its help names their kinds from the registry, its own words no kind', () => {
    const options = sourceOptions(plugIns.sources.choices());
    expect(options['input-endpoint']?.describe).toBe('custom endpoint (e.g. a local server), for s3, gcs, bigquery');
    expect(options['input-max-workers']?.describe).toBe('parallel downloads, for s3, gcs (default 8)');
    expect(options['input-s3']?.describe).toBe('read from S3');
  });

  it('given --gpu cpu, then the cpu plug-in note with the measured slow-down against the default backend', () => {
    const r = toBenchmarkConfig({ gpu: 'cpu' }, defaults);
    if (!r.ok) throw new Error('expected ok');
    expect(r.value.config.compute.backend).toBe('cpu');
    expect(r.value.warnings.join('\n')).toMatch(
      /--gpu cpu selects tfjs's pure-JavaScript cpu backend, .* about [\d,]+× slower than the default at batch 8 \(.*samples\/s/,
    );
  });

  it("given an output inside a cloud source's cache, then it is refused as an input (the plug-in's spec says what it reads)", () => {
    const cache = mkdtempSync(join(tmpdir(), 'maou-s3-cache-'));
    try {
      const flags: Raw = {
        inputS3: true,
        inputBucketName: 'b',
        inputPrefix: 'p',
        inputDataName: 'd',
        inputLocalCacheDir: cache,
      };
      const r = toBenchmarkConfig(flags, defaults);
      if (!r.ok) throw new Error('expected ok');
      const output = join(cache, 'stage3-part0.feather');
      expect(runOutputIssues({ outputJson: output, source: r.value.config.source })).toEqual([
        {
          field: '--output-json',
          message: `${output} is an input (the input cache ${cache}); an output never overwrites data`,
        },
      ]);
      expect(runOutputIssues({ outputJson: join(cache, 'report.json'), source: r.value.config.source })).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
