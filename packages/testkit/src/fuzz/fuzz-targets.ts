import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCalibrationRecord, type CalibrationSignature } from '@maou/bench-use-cases';
import { MemoryLogger } from '@maou/bench-use-cases/testing';
import type { Stage } from '@maou/bench-domain';
import {
  DataFileError,
  readArrowFile,
  decodeHcpeBatches,
  decodeLz4Frame,
  encodeLz4Frame,
  Lz4FormatError,
  JsonCalibrationStoreAdapter,
  LocalFileSourceAdapter,
  readStageFile,
  encodeStageNpy,
  readTrainingReport,
} from '@maou/bench-infra';
import { trainingReportFixture } from '../report/html-report.fixtures';

/** How one damaged input ended. `rejected`: a typed error naming the file; `accepted`: read without complaint. @internal */
export type FuzzOutcome =
  | { readonly kind: 'rejected'; readonly message: string }
  | { readonly kind: 'accepted' }
  | { readonly kind: 'unnamed'; readonly message: string }
  | { readonly kind: 'untyped'; readonly message: string };

/** A reader under test: where its seed inputs come from and how it is driven through its public entry. @internal */
export interface FuzzTarget {
  readonly suffix: string;
  /** real files written by pyarrow, polars or our writers, which the mutations damage */
  readonly seeds: () => Promise<Uint8Array[]>;
  readonly read: (path: string) => Promise<FuzzOutcome>;
}

const FIXTURES = resolve(__dirname, '..', '..', 'fixtures');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

const named = (path: string, message: string): FuzzOutcome =>
  message.includes(path) ? { kind: 'rejected', message } : { kind: 'unnamed', message };
const TYPED: readonly (new (...a: never[]) => Error)[] = [DataFileError, Lz4FormatError];

/** Runs `work`; a typed error naming the file is a rejection, anything else thrown is untyped. */
const classify = async (path: string, work: () => Promise<void>): Promise<FuzzOutcome> => {
  try {
    await work();
    return { kind: 'accepted' };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (TYPED.some((t) => e instanceof t)) return named(path, message);
    return { kind: 'untyped', message: `${e instanceof Error ? e.name : typeof e}: ${message}` };
  }
};

/** As a run reads a local shard: listed and counted by the source, then read by the shard reader. */
const stageTarget = (stage: Stage, suffix: string, seeds: readonly string[]): FuzzTarget => ({
  suffix,
  seeds: async () => seeds.map(fixture),
  read: (path) =>
    classify(path, async () => {
      const shards = await new LocalFileSourceAdapter(stage, [path]).shards();
      const columns = await readStageFile(path, stage);
      if (shards[0]?.rows !== columns.rows)
        throw new DataFileError({ path }, `listing counted ${shards[0]?.rows} rows, reading found ${columns.rows}`);
    }),
});

const SIGNATURE: CalibrationSignature = {
  cpuCores: 2,
  memoryBytes: 8e9,
  os: 'linux',
  node: 'v20',
  tfjs: '4.22.0',
  backend: 'wasm',
  backendVersion: '4.22.0',
  batchSize: 256,
  dataset: 'sample',
  streaming: true,
  pinMemory: false,
};
const KEY = 'fuzz';

/** Every reader the fuzz harness drives, by name. @internal */
export const FUZZ_TARGETS: Readonly<Record<string, FuzzTarget>> = {
  'stage1-feather': stageTarget(1, '.feather', ['stage1.lz4.feather', 'cloud/stage1-part0.feather']),
  'stage2-feather': stageTarget(2, '.feather', ['stage2.lz4.feather', 'stage2.fixedsize.multibatch.zstd.feather']),
  'stage3-feather': stageTarget(3, '.feather', ['stage3.lz4.feather', 'stage3.polars.lz4.feather']),
  'stage3-stream': stageTarget(3, '.arrows', ['stage3.list.multibatch.lz4.arrows']),
  npy: {
    suffix: '.npy',
    seeds: async () => {
      const columns = await readStageFile(join(FIXTURES, 'stage3.lz4.feather'), 3);
      return [
        fixture('legacy-packed.npy'),
        encodeStageNpy(
          columns,
          BigUint64Array.from({ length: columns.rows }, (_, i) => BigInt(i)),
        ),
      ];
    },
    read: stageTarget(3, '.npy', []).read,
  },
  hcpe: {
    suffix: '.feather',
    seeds: async () => [fixture('hcpe.lz4.feather'), fixture('hcpe.polars.lz4.feather')],
    read: (path) =>
      classify(path, async () => {
        const file = await readArrowFile(path);
        if (!file.ok) throw file.error;
        const hcpe = decodeHcpeBatches(file.value);
        if (!hcpe.ok) throw hcpe.error;
      }),
  },
  'lz4-frame': {
    suffix: '.lz4',
    seeds: async () => [encodeLz4Frame(new Uint8Array(Buffer.from(JSON.stringify(trainingReportFixture(40)))))],
    // The frame decoder sees bytes, not files: its typed error carries the byte offset, and the Arrow reader names the file.
    read: async (path) => {
      try {
        decodeLz4Frame(new Uint8Array(readFileSync(path)), { maxBytes: 256 << 20 });
        return { kind: 'accepted' };
      } catch (e) {
        return e instanceof Lz4FormatError
          ? { kind: 'rejected', message: `${path}: ${e.message}` }
          : { kind: 'untyped', message: String(e) };
      }
    },
  },
  'report-json': {
    suffix: '.json',
    seeds: async () => [new Uint8Array(Buffer.from(JSON.stringify(trainingReportFixture(30), null, 2)))],
    // benchmark-compare's reader, which vouches for every figure the comparison reads (the comparison itself is the
    // app's use case, with its own spec): a damaged report is refused naming the file and the field, or is a report.
    read: (path) =>
      classify(path, async () => {
        const r = await readTrainingReport(path);
        if (!r.ok) throw new DataFileError({ path: '' }, r.error);
      }),
  },
  calibration: {
    suffix: '.json',
    seeds: async () => {
      const record = {
        signature: SIGNATURE,
        createdAtMs: Date.now(),
        choice: { workers: 1, prefetchFactor: 2, batchSize: 256, samplesPerSecond: 900.5, p95WaitMs: 1.2 },
      };
      return [
        new Uint8Array(Buffer.from(`${JSON.stringify({ formatVersion: 1, entries: { [KEY]: record } }, null, 2)}\n`)),
      ];
    },
    // The store ignores what it cannot read (with a warning naming the file); the use case then checks the record.
    read: (path) =>
      classify(path, async () => {
        const logger = new MemoryLogger();
        const value = await new JsonCalibrationStoreAdapter(path, logger).load(KEY);
        const warned = logger.lines.find((l) => l.level === 'warn');
        if (warned) throw new DataFileError({ path }, warned.msg);
        if (value === null) throw new DataFileError({ path }, 'no entry for this signature');
        const record = parseCalibrationRecord(value, SIGNATURE, Date.now(), 7 * 24 * 3.6e6);
        if (typeof record === 'string') throw new DataFileError({ path }, record);
      }),
  },
};
