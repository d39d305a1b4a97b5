import { FIXTURES_DIR } from '@maou/bench-testkit/arrow';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stage } from '@maou/bench-domain';
import { DataFileError } from '../../arrow/data-file-error';
import { seededRandom } from '../../sample-data/seeded-random';
import { readStageFile } from './read-stage-file';

// Fuzz: truncations and byte flips of real files must yield valid records or a DataFileError naming the file.
const CASES: [string, Stage][] = [
  ['stage3.lz4.feather', 3],
  ['stage3.list.multibatch.lz4.arrows', 3],
  ['stage2.fixedsize.multibatch.zstd.feather', 2],
  ['stage1.lz4.feather', 1],
  ['legacy-packed.npy', 3],
  ['stage3.polars.lz4.feather', 3],
];
const MUTATIONS = 120;

const mutate = (src: Buffer, random: () => number, i: number): Buffer => {
  const out = Buffer.from(src);
  if (i % 3 === 0) return out.subarray(0, Math.floor(random() * src.length));
  const flips = 1 + Math.floor(random() * 4);
  for (let k = 0; k < flips; k++) out[Math.floor(random() * out.length)] ^= 1 << Math.floor(random() * 8);
  return out;
};

describe('readers on corrupted copies of real files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'maou-fuzz-'));
  it.each(CASES)('%s: every mutation reads cleanly or fails with the file named', async (name, stage) => {
    const src = readFileSync(join(FIXTURES_DIR, name));
    const random = seededRandom(name.length * 7919);
    let failures = 0;
    for (let i = 0; i < MUTATIONS; i++) {
      const path = join(dir, `m${i}-${name}`);
      writeFileSync(path, mutate(src, random, i));
      try {
        const cols = await readStageFile(path, stage);
        expect(cols.boardIdPositions.length).toBe(cols.rows * 81);
      } catch (e) {
        failures++;
        if (!(e instanceof DataFileError)) throw new Error(`mutation ${i} of ${name} threw a bare ${String(e)}`);
        expect(e.message).toContain(path);
      }
    }
    // Truncations alone are a third of the mutations; each must be caught.
    expect(failures).toBeGreaterThanOrEqual(MUTATIONS / 3);
  });
});
