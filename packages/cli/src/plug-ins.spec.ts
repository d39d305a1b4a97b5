import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES_DIR } from '@maou/bench-testkit/arrow';
import { FIXTURE_DIR as FIXTURES } from '@maou/bench-testkit/sources';
import { transientClassifier } from '@maou/bench-infra';
import { run } from './run';
import { benchmarkTraining } from '@maou/bench-app';
import { UsageError } from '@maou/bench-app';
import { shippedPlugIns, type PlugIns } from '@maou/bench-app/commands';
import { fakeBackendPlugin, fakeSteps } from './testdata/fake-backend/fake-backend.plugin';
import { fixtureFolderSource } from './testdata/fixture-folder-source/fixture-folder.source';
import { BUSY, startHttpFolderServer, type HttpFolderServer } from './testdata/http-folder-store/http-folder-server';
import { httpFolderSource } from './testdata/http-folder-store/http-folder.source';

// The "done when": a new backend, a new datasource and a new bucket-style store are each one folder
// (testdata/, not built into dist) and one registration line below, and then the real command line knows them: their
// flags and help in --help, their bounds checked (exit 2 naming the flag, before any I/O), a benchmark that trains on
// the fake backend's own trainer over the rows the fake source serves (files pyarrow wrote), and a Stage 3 benchmark
// over the store's loopback server whose busy answers only the store's own classifier retries.
const dir = mkdtempSync(join(tmpdir(), 'maou-plug-ins-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const withFakes = (): PlugIns => {
  const shipped = shippedPlugIns();
  shipped.backends.register(fakeBackendPlugin);
  shipped.sources.register(fixtureFolderSource);
  shipped.sources.register(httpFolderSource);
  return shipped;
};

const maou = async (argv: string[], plugIns = withFakes()) => {
  const out: string[] = [];
  const errs: string[] = [];
  const so = jest.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  // yargs prints --help through console.log
  const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${a.join(' ')}\n`));
  const se = jest.spyOn(process.stderr, 'write').mockImplementation((c) => errs.push(String(c)) > 0);
  try {
    return { code: await run(argv, plugIns), stdout: out.join(''), stderr: errs.join('') };
  } finally {
    so.mockRestore();
    se.mockRestore();
    log.mockRestore();
  }
};
const TRAIN = ['utility', 'benchmark-training'];
/** A few batches of the small model, no calibration, no logs. */
const SHORT_RUN = [
  ...['--model-architecture', 'lite', '--batch-size', '8', '--warmup-batches', '1', '--max-batches', '3'],
  ...['--dataloader-workers', '0', '--no-calibrate', '--log-level', 'silent'],
];

describe('a backend and a datasource added as plug-ins, through the real command line', () => {
  it('given both registered, then --help shows the source under its help line with its flags, and the backend in --gpu', async () => {
    const r = await maou([...TRAIN, '--help']);
    expect(r.code).toBe(0);
    // yargs wraps help to the terminal's width: compare with the line breaks folded.
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Datasource fixture-folder: the .feather files of one folder (test plug-in)');
    expect(help).toContain('--fixture-folder read every .feather file of this folder');
    expect(help).toContain('--fixture-max-files read at most this many of its files');
    expect(help).toContain('fake (a test backend on the wasm kernels)');
    // every help line about backends is made from their capabilities: a bounded heap puts it beside wasm under
    // --find-max-batch; without f16 or data-parallel replicas it is in neither of those lines
    expect(help).toContain(
      "--gpu wasm or --gpu fake: fits = each replica's share of the batch trains as one piece (no micro-batching) in its bounded heap",
    );
    expect(help).toContain('Refused on tensorflow and cpu (no memory limit to search against)');
    expect(help).toMatch(/--mixed-precision f16 activations, .* with --gpu webgpu; refused on every other backend/);
    expect(help).toContain('; on wasm, data-parallel replicas in worker threads');
    // every registered source's help line heads its flags, the shipped ones' too
    for (const { kind, help: line } of withFakes().sources.describe())
      expect(help).toContain(`Datasource ${kind}: ${line}`);
    const loader = await maou(['utility', 'benchmark-dataloader', '--help']);
    expect(loader.stdout).toContain('--fixture-folder');
  });

  it('given the shipped plug-ins only, then the fake flags and --gpu fake are usage errors (exit 2)', async () => {
    const flag = await maou([...TRAIN, '--fixture-folder', FIXTURES], shippedPlugIns());
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --fixture-folder');
    const gpu = await maou([...TRAIN, '--gpu', 'fake'], shippedPlugIns());
    expect(gpu.code).toBe(2);
    expect(gpu.stderr).toContain("--gpu: unknown device 'fake'");
  });

  it.each([
    [
      ['--fixture-folder', FIXTURES, '--fixture-max-files', '0'],
      '--fixture-max-files: must be an integer from 1 to 100, got 0',
    ],
    [
      ['--fixture-folder', FIXTURES, '--stage1-data-path', FIXTURES],
      '--fixture-folder: cannot be combined with --stage1-data-path',
    ],
    [['--fixture-folder', FIXTURES, '--input-s3'], '--fixture-folder: cannot be combined with --input-s3 (Amazon S3'],
    [
      ['--gpu', 'FAKE', '--mixed-precision'],
      '--mixed-precision: needs --gpu webgpu (the backends with f16 activations; got --gpu fake)',
    ],
  ])('%j is refused with exit 2 naming the flag', async (flags, message) => {
    const r = await maou([...TRAIN, '--stage', '1', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('given both registered, then a benchmark on --gpu fake over --fixture-folder trains through the fake trainer and reports both', async () => {
    const out = join(dir, 'report.json');
    const before = fakeSteps.count;
    const r = await maou([
      ...TRAIN,
      '--gpu',
      'fake',
      '--fixture-folder',
      FIXTURES,
      '--fixture-max-files',
      '2',
      '--stage',
      '1',
      ...SHORT_RUN,
      '--output-json',
      out,
    ]);
    expect(r.stderr).not.toMatch(/invalid options/);
    expect(r.code).toBe(0);
    const report = JSON.parse(await readFile(out, 'utf8'));
    expect(report.config.source).toBe('fixture-folder');
    expect(report.environment.backend).toBe('fake');
    expect(report.data_load_method.source).toMatch(/^fixture folder /);
    expect(report.training_metrics.measured_batches + 1).toBeLessThanOrEqual(fakeSteps.count - before);
  }, 180_000);

  it('given the plug-ins in a library run, then their flags are options (bounds checked) and the run uses both', async () => {
    const plugIns = withFakes();
    const options = {
      gpu: 'fake',
      fixtureFolder: FIXTURES,
      stage: 1,
      modelArchitecture: 'lite',
      batchSize: 8,
      warmupBatches: 1,
      maxBatches: 2,
      dataloaderWorkers: 0,
      calibrate: false,
      logLevel: 'silent',
    } as const;
    // the plug-ins' own options, named to the closed options type
    type FixtureOptions = { fixtureFolder?: string; fixtureMaxFiles?: number };
    await expect(benchmarkTraining<FixtureOptions>({ ...options, fixtureMaxFiles: 500 }, { plugIns })).rejects.toThrow(
      UsageError,
    );
    await expect(benchmarkTraining<FixtureOptions>(options)).rejects.toThrow(/fixtureFolder: unknown option/);
    const report = await benchmarkTraining<FixtureOptions>(options, { plugIns });
    expect(report.config.source).toBe('fixture-folder');
    expect(report.environment.backend).toBe('fake');
  }, 180_000);
});

describe('a bucket-style store added as one folder: the factory gives it the --input-* flags, downloads and retries', () => {
  let server: HttpFolderServer;
  const bucket = join(dir, 'folder-root', 'maou-http', 'runs', 'stage3');
  const files = ['stage3.lz4.feather', 'stage3.polars.lz4.feather'];
  beforeAll(async () => {
    mkdirSync(bucket, { recursive: true });
    for (const f of files) copyFileSync(join(FIXTURES_DIR, f), join(bucket, f));
    // each object's first GET is answered busy (HTTP 423 with the store's code)
    server = await startHttpFolderServer(join(dir, 'folder-root'), 1);
  });
  afterAll(() => server.close());

  it('given it registered, then --help shows its help line and selecting flag, and the shared flags name it', async () => {
    const help = (await maou([...TRAIN, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Datasource http-folder: a folder served over loopback HTTP (test plug-in)');
    expect(help).toContain('--input-http-folder read from a folder served over HTTP');
    expect(help).toContain('--input-bucket-name bucket, for s3, gcs, http-folder');
    expect(help).toContain(
      '--input-endpoint custom endpoint (e.g. a local server), for s3, gcs, bigquery, http-folder',
    );
  });

  it('given --input-http-folder, then a Stage 3 benchmark trains on the served sample files, each busy answer retried', async () => {
    const out = join(dir, 'http-folder.json');
    const r = await maou([
      ...TRAIN,
      '--input-http-folder',
      '--input-endpoint',
      server.url,
      '--input-bucket-name',
      'maou-http',
      '--input-prefix',
      'runs',
      '--input-data-name',
      'stage3',
      '--input-local-cache-dir',
      join(dir, 'http-cache'),
      '--stage',
      '3',
      // the sample files predate the win-rate column
      '--policy-target-mode',
      'move-label',
      ...SHORT_RUN,
      '--output-json',
      out,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(await readFile(out, 'utf8'));
    expect(report.config.source).toBe('http-folder');
    expect(report.data_load_method.source).toMatch(/^folder\+http:\/\/maou-http\/runs\/stage3\/ cached in /);
    // the rules every store shares call a 423 final: only the store's classifier makes these retries
    expect(transientClassifier()(Object.assign(new Error('busy'), { status: 423, code: BUSY }))).toBe(false);
    expect([server.busy(), report.io.objects, report.io.retries]).toEqual([files.length, files.length, files.length]);
  }, 180_000);
});
