import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStageFile } from '../sources/local/read-stage-file';
import { ensureSampleDataset } from './ensure-sample-dataset';
import { generateSampleData } from './generate-sample-data';
import { findIllegalLabel } from './verify-stage-labels';

describe('sample data from random legal games', () => {
  it('Stage 3: real labels (all legal), probability rows, results in [0,1], deterministic per seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-s3-'));
    const progress: number[] = [];
    const files = await generateSampleData({
      stage: 3,
      positions: 300,
      seed: 7,
      outputDir: join(dir, 'a'),
      rowsPerFile: 128,
      onProgress: (d) => progress.push(d),
    });
    expect(files.map((f) => f.rows)).toEqual([128, 128, 44]);
    expect(progress.length).toBeGreaterThan(0);
    const cols = await Promise.all(files.map((f) => readStageFile(f.path, 3)));
    for (const c of cols) {
      if (c.stage !== 3) throw new Error('stage');
      expect(findIllegalLabel(c)).toBeNull();
      for (let r = 0; r < c.rows; r++)
        expect(c.moveLabel.subarray(r * 1496, (r + 1) * 1496).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    }
    const again = await generateSampleData({
      stage: 3,
      positions: 300,
      seed: 7,
      outputDir: join(dir, 'b'),
      rowsPerFile: 128,
    });
    expect(await readStageFile(again[1]!.path, 3)).toEqual(cols[1]);
  });

  it('Stage 2: the label set of each row is exactly its legal-move set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-s2-'));
    const [file] = await generateSampleData({ stage: 2, positions: 60, seed: 3, outputDir: dir });
    const c = await readStageFile(file!.path, 2);
    if (c.stage !== 2) throw new Error('stage');
    expect(c.rows).toBe(60);
    expect(findIllegalLabel(c)).toBeNull();
  });

  it('ensureSampleDataset reuses matching files and regenerates on a different seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-ens-'));
    const first = await ensureSampleDataset({ stage: 1, dir, positions: 2000, seed: 1 });
    const mtime = readdirSync(dir).length;
    let regenerated = false;
    const second = await ensureSampleDataset({
      stage: 1,
      dir,
      positions: 2000,
      seed: 1,
      onProgress: () => {
        regenerated = true;
      },
    });
    expect(second).toEqual(first);
    expect(regenerated).toBe(false);
    expect(readdirSync(dir).length).toBe(mtime);
    await ensureSampleDataset({
      stage: 1,
      dir,
      positions: 2000,
      seed: 2,
      onProgress: () => {
        regenerated = true;
      },
    });
    expect(regenerated).toBe(true);
    const c = await readStageFile(first[0]!, 1);
    expect(c.rows).toBe(2000);
  });

  it('given runs at once in one process on one directory, then they take turns and every one gets whole files (#19)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-ens-'));
    const runs = await Promise.all(
      [1, 2, 1].map((seed) => ensureSampleDataset({ stage: 1, dir, positions: 600, seed })),
    );
    expect(runs[0]).toEqual(runs[2]);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    for (const files of runs) expect((await readStageFile(files[0]!, 1)).rows).toBe(600);
  });
});
