import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import {
  ObjectStoreDataSourceAdapter,
  SystemClockAdapter,
  type CloudSourceDeps,
  type ObjectSourceOptions,
  type StageFileReader,
} from '@maou/bench-infra';

/** Stage 1 files written by pyarrow like maou's writer (LZ4, large_list); see fixtures/cloud/make-fixtures.py. */
export const FIXTURE_DIR = join(__dirname, '..', '..', 'fixtures', 'cloud');
export const FIXTURES = [
  { file: 'stage1-part0.feather', rows: 40, boardSum: 45606, handSum: 592, reachSum: 1584 },
  { file: 'stage1-part1.feather', rows: 60, boardSum: 68142, handSum: 816, reachSum: 2451 },
  { file: 'stage1-part2.feather', rows: 50, boardSum: 56494, handSum: 715, reachSum: 2013 },
] as const;

export const fixtureBytes = (file: string): Promise<Buffer> => readFile(join(FIXTURE_DIR, file));

export const tempDir = (tag: string): Promise<string> => mkdtemp(join(tmpdir(), `maou-cloud-${tag}-`));

/** Every file under `dir`, relative, sorted. */
export const listTree = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1))
    .sort();

/** The cache after the three fixture objects were downloaded whole: each with the SHA-256 recorded beside it. */
export const WHOLE_CACHE = [0, 1, 2].flatMap((i) => [`stage1/part${i}.feather`, `stage1/part${i}.feather.sha256`]);

/** Retries without waiting, jitter fixed, so fault tests are fast and repeatable. */
export const testDeps = (
  readStageFile: StageFileReader,
  logger = new MemoryLogger(),
): CloudSourceDeps & { logger: MemoryLogger } => ({
  logger,
  clock: new SystemClockAdapter(),
  readStageFile,
  retryHooks: { sleep: () => Promise.resolve(), random: () => 0.5 },
});

export const objectOptions = (localCacheDir: string, over: Partial<ObjectSourceOptions> = {}): ObjectSourceOptions => ({
  prefix: 'runs',
  dataName: 'stage1',
  localCacheDir,
  maxWorkers: 3,
  enableBundling: false,
  bundleSizeGb: 1,
  sampleRatio: null,
  seed: 42,
  retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 4 },
  idleTimeoutMs: 300,
  ...over,
});

/**
 * Prepares a bucket source whose object `part1` never answers (the caller's fault proxy stalls it), with a real run's
 * 30 s idle limit and a request budget of 1 s, and says how it ended in one line: its failure message, whether it
 * ended within 10 s, and whether anything of `part1` stayed in the cache.
 */
export const silentPart1Outcome = async (
  store: ConstructorParameters<typeof ObjectStoreDataSourceAdapter>[1],
  cache: string,
  endpoint: string,
  readStageFile: StageFileReader,
): Promise<string> => {
  const options = objectOptions(cache, { idleTimeoutMs: 30_000, requestTimeoutMs: 1_000, endpoint });
  const started = Date.now();
  const r = await new ObjectStoreDataSourceAdapter(1, store, options, testDeps(readStageFile)).prepare();
  const ms = Date.now() - started;
  const left = (await listTree(cache)).filter((f) => f.includes('part1') || f.endsWith('.part'));
  return [
    r.ok ? 'prepared' : r.error.message,
    ms < 10_000 ? 'within 10 s' : `after ${ms} ms`,
    left.length ? `left ${left.join(', ')}` : 'nothing of part1 cached',
  ].join(' | ');
};
