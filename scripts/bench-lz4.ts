/**
 * LZ4 frame encoding speed: today's encoder (lz4_flex blocks through lz4-napi) against the one before it (lz4js
 * 0.2.0, whose blocks liblz4 can reject), on the buffers a sample-data run compresses.
 *
 *   pnpm bench:lz4 [-- --positions 4000 --rounds 8]
 *
 * Data: the legalMovesLabel buffer of a Stage 2 file and the moveLabel buffer of a Stage 3 file, built from random
 * games as `generate-sample-data` builds them (seed 777). Rounds alternate A (lz4js) and B (ours), A/B/A/B, so a
 * change in machine load shows in both. lz4js is timed on its own frame output, plus the content checksum, the work the old
 * encoder did.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildSampleRecords, encodeLz4Frame, xxhash32 } from '@maou/bench-infra';

const infraRequire = createRequire(join(__dirname, '../packages/infra/package.json'));
const lz4js = infraRequire('lz4js') as { compress(src: Uint8Array): Uint8Array | number[] };

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const positions = arg('positions', 4000);
const rounds = arg('rounds', 8);

const stage2 = buildSampleRecords(2, positions, 777).columns;
const stage3 = buildSampleRecords(3, positions, 777).columns;
const buffers: [string, Uint8Array][] = [];
if (stage2.stage === 2) buffers.push(['stage2 legalMovesLabel', stage2.legalMovesLabel]);
if (stage3.stage === 3)
  buffers.push([
    'stage3 moveLabel',
    new Uint8Array(stage3.moveLabel.buffer, stage3.moveLabel.byteOffset, stage3.moveLabel.byteLength),
  ]);

const encoders: [string, (b: Uint8Array) => number][] = [
  // The old encoder's work: lz4js's frame, plus the content checksum both encoders add.
  ['A lz4js 0.2.0', (b) => lz4js.compress(b).length + 0 * xxhash32(b)],
  ['B lz4-napi 2.10.0', (b) => encodeLz4Frame(b).length],
];

console.log(
  `machine load (1/5/15 min): ${loadavg()
    .map((l: number) => l.toFixed(1))
    .join(' ')}`,
);
for (const [name, data] of buffers) {
  for (let r = 0; r < rounds; r++) {
    const [label, encode] = encoders[r % 2]!;
    const t0 = process.hrtime.bigint();
    const bytes = encode(data);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(
      `${name} (${(data.length / 2 ** 20).toFixed(1)} MiB)  ${label}: ${(data.length / 2 ** 20 / s).toFixed(0)} MiB/s, ` +
        `${(s * 1000).toFixed(1)} ms, ${bytes} bytes (ratio ${(data.length / bytes).toFixed(1)})`,
    );
  }
}
