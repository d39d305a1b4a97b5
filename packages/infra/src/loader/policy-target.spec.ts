import { FIXTURES_DIR } from '@maou/bench-testkit/arrow';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataLoaderConfig, HostBatch, PolicyTargetMode } from '@maou/bench-domain';
import { buildSampleRecords, writeStageShards } from '../sample-data/generate-sample-data';
import { LocalFileSourceAdapter } from '../sources/local/local-file-source.adapter';
import { readStageFile } from '../sources/local/read-stage-file';
import { DataLoaderAdapter } from './data-loader.adapter';

// The loader under real files: our Stage 3 sample files (with maou HEAD's moveWinRate) and a fixture pyarrow wrote
// with the older schema (no moveWinRate), read by the main thread and by worker threads.
const dir = mkdtempSync(join(tmpdir(), 'maou-policy-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config: DataLoaderConfig = {
  batchSize: 8,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: false,
  streaming: false,
  shuffle: false,
  testRatio: 0.2,
  cacheMode: 'file',
  devicePrefetch: 0,
  seed: 1,
};

const firstBatch = async (path: string, extra: Partial<DataLoaderConfig>): Promise<HostBatch> => {
  const loader = await DataLoaderAdapter.create(new LocalFileSourceAdapter(3, [path]), { ...config, ...extra });
  for await (const b of loader.iterate('train', 0)) return b;
  throw new Error('no batch');
};
const policy = (b: HostBatch): Float32Array => {
  if (b.targets.stage !== 3) throw new Error('not Stage 3');
  return b.targets.moveLabel;
};

describe('--policy-target-mode in the loader (#25)', () => {
  let ours: string;
  beforeAll(async () => {
    const [file] = await writeStageShards(buildSampleRecords(3, 60, 3), join(dir, 'ours'), 1000, 'lz4');
    ours = file!.path;
  });

  it.each([
    ['move-label', 'moveLabel'],
    ['win-rate', 'moveWinRate'],
    ['weighted', 'moveLabel × moveWinRate'],
  ] as const)('given %s, then batches carry %s of the file as the policy target', async (mode, _target) => {
    const c = await readStageFile(ours, 3);
    if (c.stage !== 3 || !c.moveWinRate) throw new Error('sample file without moveWinRate');
    const rates = c.moveWinRate;
    // The split picks the rows; find each batch row's file row by its board and hand (positions are distinct).
    const key = (board: ArrayLike<number>, hand: ArrayLike<number>): string =>
      `${Array.from(board)}|${Array.from(hand)}`;
    const rowOf = new Map<string, number>();
    for (let r = 0; r < c.rows; r++)
      rowOf.set(key(c.boardIdPositions.subarray(r * 81, r * 81 + 81), c.piecesInHand.subarray(r * 14, r * 14 + 14)), r);
    const batch = await firstBatch(ours, { policyTargetMode: mode });
    const got = policy(batch);
    for (let i = 0; i < batch.size; i++) {
      const r = rowOf.get(
        key(batch.boardIds.subarray(i * 81, i * 81 + 81), batch.hands.subarray(i * 14, i * 14 + 14)),
      )!;
      const label = c.moveLabel.subarray(r * 1496, r * 1496 + 1496);
      const rate = rates.subarray(r * 1496, r * 1496 + 1496);
      const want = mode === 'move-label' ? label : mode === 'win-rate' ? rate : label.map((v, k) => v * rate[k]!);
      expect(Array.from(got.subarray(i * 1496, i * 1496 + 1496))).toEqual(Array.from(want));
    }
  });

  it.each([
    ['win-rate', 0, 'file'],
    ['weighted', 2, 'file'],
    ['win-rate', 2, 'memory'],
  ] as [PolicyTargetMode, number, 'file' | 'memory'][])(
    'given %s and a file without moveWinRate (%i workers, %s cache), then the error names the file, the column and the mode',
    async (mode, workers, cacheMode) => {
      const old = join(dir, `old-${mode}-${workers}.feather`);
      copyFileSync(join(FIXTURES_DIR, 'stage3.lz4.feather'), old);
      await expect(firstBatch(old, { policyTargetMode: mode, workers, cacheMode })).rejects.toThrow(
        new RegExp(`file ${old}, column moveWinRate: missing column, which --policy-target-mode ${mode} needs`),
      );
    },
  );

  it('given move-label, then a file without moveWinRate trains on its moveLabel', async () => {
    const old = join(dir, 'old-move-label.feather');
    copyFileSync(join(FIXTURES_DIR, 'stage3.lz4.feather'), old);
    expect(policy(await firstBatch(old, { policyTargetMode: 'move-label', batchSize: 4 })).length).toBe(4 * 1496);
  });
});
