/**
 * Reader fuzzing (#19): seeded damaged copies of real files (pyarrow- and polars-written Stage 1/2/3 .feather and
 * .arrows, .npy with and without header, HCPE .feather, LZ4 frames, benchmark-training JSON reports as
 * benchmark-compare reads them, calibration files) go through each reader's public entry, one input at a time in a
 * child process with a time limit and a heap limit.
 *
 *   pnpm fuzz:readers [-- --per-reader 10000 --seconds 3600 --seed 19 --targets npy,hcpe --timeout-ms 10000 --heap-mb 512 --children 2]
 *   pnpm fuzz:readers -- --seed 19 --targets hcpe --only 9314,9615     (replays those inputs of that seed)
 *
 * Mutation classes: empty file, wrong magic, truncation (in the header, each metadata block, the body, the tail),
 * bit flips in the header, in metadata (flatbuffers, npy header, frame descriptor) and in the body, and lying lengths
 * (an int32 of the metadata, an npy shape or a JSON number set to an absurd value).
 *
 * Outcomes per input: rejected (a typed error naming the file), accepted (read without complaint: the silent-acceptance
 * rate, expected for body flips that keep values in range), unnamed (a typed error without the file), untyped, hang,
 * crash. Exits 1 unless unnamed, untyped, hangs and crashes are all 0. `--seed` and the input number replay an input.
 *
 * Then the "hostile but valid" class: pyarrow-written Stage 3 files with extreme shapes (10 M rows of empty lists,
 * 10 k columns, duplicate names, dictionary and all-null columns), each in a fresh child, with its outcome, peak RSS
 * and time; `--hostile-scale 5` multiplies the sizes (50 M rows, 50 k columns), `--hostile-scale 0` skips it.
 */
// The built runner (the package script compiles first); it forks one child process per slot.
import { runFuzz, runHostile } from '@maou/bench-testkit/fuzz';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

const main = async (): Promise<void> => {
  const seed = Number(arg('seed', String(Date.now() % 1_000_000)));
  const perReader = Number(arg('per-reader', '10000'));
  const targets = process.argv.includes('--targets') ? arg('targets', '').split(',') : undefined;
  const only = process.argv.includes('--only') ? arg('only', '').split(',').map(Number) : undefined;
  process.stdout.write(
    `fuzz readers: seed ${seed}, ${only ? `inputs ${only.join(', ')}` : `${perReader} inputs`} per reader, ${targets?.join(', ') ?? 'all readers'}\n`,
  );
  let last = 0;
  const figures = await runFuzz({
    seed,
    perReader,
    targets,
    only,
    seconds: Number(arg('seconds', '3600')),
    timeoutMs: Number(arg('timeout-ms', '10000')),
    heapMb: Number(arg('heap-mb', '512')),
    children: Number(arg('children', '2')),
    onProgress: (done, total) => {
      if (Date.now() - last < 10_000) return;
      last = Date.now();
      process.stderr.write(`  ${done}/${total} inputs\n`);
    },
  });
  const rows = [
    ['reader', 'class', 'inputs', 'rejected', 'accepted (silent)', 'unnamed', 'untyped', 'hangs', 'crashes'],
  ];
  let bad = 0;
  for (const [target, byClass] of Object.entries(figures.counts)) {
    for (const [kind, c] of Object.entries(byClass)) {
      rows.push([
        target,
        kind,
        String(c.inputs),
        String(c.rejected),
        `${c.accepted} (${pct(c.accepted, c.inputs)})`,
        String(c.unnamed),
        String(c.untyped),
        String(c.hangs),
        String(c.crashes),
      ]);
      bad += c.unnamed + c.untyped + c.hangs + c.crashes;
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows)
    process.stdout.write(
      `${r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}\n`,
    );
  process.stdout.write(
    `peak child RSS ${(figures.maxChildRssBytes / 2 ** 20).toFixed(0)} MiB, ${(figures.elapsedMs / 1000).toFixed(0)} s\n`,
  );
  for (const p of figures.problems) process.stdout.write(`PROBLEM ${p}\n`);
  process.stdout.write(
    bad === 0
      ? 'OK: every damaged input was rejected with the file named or read as valid; no untyped error, hang or crash\n'
      : `FAILED: ${bad} problem input(s); replay with --seed ${seed}\n`,
  );
  const scale = Number(arg('hostile-scale', '1'));
  const hostile =
    scale > 0 ? await runHostile({ scale, heapMb: Number(arg('heap-mb', '512')), timeoutMs: 120_000 }) : [];
  for (const h of hostile)
    process.stdout.write(
      `hostile ${h.name} (x${scale}, ${(h.bytes / 1e6).toFixed(1)} MB): ${h.outcome}, peak child RSS ${(h.childRssBytes / 2 ** 20).toFixed(0)} MiB, ${(h.elapsedMs / 1000).toFixed(1)} s\n`,
    );
  bad += hostile.filter((h) => !h.ok).length;
  process.exitCode = bad === 0 ? 0 : 1;
};

void main();
