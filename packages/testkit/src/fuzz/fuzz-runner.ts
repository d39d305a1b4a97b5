import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mulberry32 } from '@maou/bench-domain';
import type { FuzzReply, FuzzRequest } from './fuzz-child';
import { MUTATION_CLASSES, mutate, type MutationClass } from './fuzz-mutations';
import { FUZZ_TARGETS } from './fuzz-targets';
import { HOSTILE_CASES, writeHostileFile, type HostileCase } from './hostile-files';

/** How many inputs, how long, which readers; children are bounded in time and heap. @internal */
export interface FuzzOptions {
  readonly seed: number;
  readonly perReader: number;
  readonly seconds: number;
  readonly targets?: readonly string[];
  /** replay only these input numbers (with the same seed) */
  readonly only?: readonly number[];
  readonly timeoutMs?: number;
  readonly heapMb?: number;
  readonly children?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Counts per reader and mutation class. @internal */
export interface FuzzCounts {
  inputs: number;
  rejected: number;
  accepted: number;
  unnamed: number;
  untyped: number;
  hangs: number;
  crashes: number;
}

/** What a campaign found; `unnamed`, `untyped`, `hangs` and `crashes` must be 0. @internal */
export interface FuzzFigures {
  readonly seed: number;
  readonly counts: Record<string, Record<MutationClass, FuzzCounts>>;
  /** the first problems, each with what replays it */
  readonly problems: string[];
  readonly maxChildRssBytes: number;
  readonly elapsedMs: number;
}

// The runner forks the compiled child (`pnpm build` first), also when it runs from sources under Jest.
const CHILD = resolve(__dirname, '..', '..', 'dist', 'fuzz', 'fuzz-child.js');
const zero = (): FuzzCounts => ({ inputs: 0, rejected: 0, accepted: 0, unnamed: 0, untyped: 0, hangs: 0, crashes: 0 });
const hash = (s: string): number => [...s].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, 7);

/** The damaged input number `i` of `target`: its class, seed file and bytes follow from (seed, target, i) alone. @internal */
export const fuzzInput = (
  seeds: readonly Uint8Array[],
  seed: number,
  target: string,
  i: number,
): { kind: MutationClass; bytes: Uint8Array } => {
  const rnd = mulberry32((seed ^ hash(target)) + i * 7919);
  const kind = MUTATION_CLASSES[i % MUTATION_CLASSES.length]!;
  return { kind, bytes: mutate(seeds[Math.floor(rnd() * seeds.length)]!, kind, rnd) };
};

type Ended = { outcome: FuzzReply['outcome'] } | 'hang' | 'crash';

/** One child process, restarted after a hang or a crash. */
class Slot {
  private child: ChildProcess | null = null;
  maxRss = 0;
  constructor(
    private readonly heapMb: number,
    private readonly timeoutMs: number,
  ) {}

  run(req: FuzzRequest): Promise<Ended> {
    const child = (this.child ??= fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${this.heapMb}`, '--expose-gc'],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    }));
    return new Promise((done) => {
      const finish = (e: Ended): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        done(e);
      };
      const onMessage = (m: FuzzReply): void => {
        if (m.id !== req.id) return;
        this.maxRss = Math.max(this.maxRss, m.maxRssBytes);
        finish({ outcome: m.outcome });
      };
      const onExit = (): void => {
        this.child = null;
        finish('crash');
      };
      const timer = setTimeout(() => {
        this.child = null;
        child.off('exit', onExit);
        child.kill('SIGKILL');
        finish('hang');
      }, this.timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send(req);
    });
  }

  close(): void {
    this.child?.kill();
  }
}

const tally = (c: FuzzCounts, e: Ended): void => {
  c.inputs++;
  if (e === 'hang') c.hangs++;
  else if (e === 'crash') c.crashes++;
  else c[e.outcome.kind]++;
};

/**
 * Feeds seeded damaged copies of real files to every reader, each input in a child process with a time and heap
 * bound, and counts how each ended. @internal
 */
export const runFuzz = async (o: FuzzOptions): Promise<FuzzFigures> => {
  if (!existsSync(CHILD)) throw new Error(`${CHILD} is missing: run \`pnpm build\` first`);
  const started = Date.now();
  const targets = o.targets ?? Object.keys(FUZZ_TARGETS);
  const dir = await mkdtemp(join(tmpdir(), 'maou-fuzz-'));
  const slots = Array.from({ length: o.children ?? 2 }, () => new Slot(o.heapMb ?? 512, o.timeoutMs ?? 10_000));
  const counts: FuzzFigures['counts'] = {};
  const problems: string[] = [];
  const numbers = o.only ?? Array.from({ length: o.perReader }, (_, i) => i);
  const jobs: { target: string; i: number }[] = targets.flatMap((target) => numbers.map((i) => ({ target, i })));
  const seeds = Object.fromEntries(
    await Promise.all(targets.map(async (t) => [t, await FUZZ_TARGETS[t]!.seeds()] as const)),
  );
  let next = 0;
  let done = 0;
  const work = async (slot: Slot, n: number): Promise<void> => {
    while (next < jobs.length && Date.now() - started < o.seconds * 1000) {
      const { target, i } = jobs[next++]!;
      const { kind, bytes } = fuzzInput(seeds[target]!, o.seed, target, i);
      const path = join(dir, `${target}-${i}${FUZZ_TARGETS[target]!.suffix}`);
      await writeFile(path, bytes);
      const ended = await slot.run({ id: next * 100 + n, target, path });
      tally(((counts[target] ??= {} as Record<MutationClass, FuzzCounts>)[kind] ??= zero()), ended);
      const bad =
        ended === 'hang' || ended === 'crash'
          ? ended
          : ended.outcome.kind === 'untyped' || ended.outcome.kind === 'unnamed'
            ? `${ended.outcome.kind}: ${ended.outcome.message}`
            : null;
      if (bad && problems.length < 50) problems.push(`${target} #${i} (${kind}, seed ${o.seed}): ${bad.slice(0, 300)}`);
      await rm(path, { force: true });
      o.onProgress?.(++done, jobs.length);
    }
  };
  try {
    await Promise.all(slots.map((s, n) => work(s, n)));
  } finally {
    slots.forEach((s) => s.close());
    await rm(dir, { recursive: true, force: true });
  }
  return {
    seed: o.seed,
    counts,
    problems,
    maxChildRssBytes: Math.max(...slots.map((s) => s.maxRss)),
    elapsedMs: Date.now() - started,
  };
};

/** How one hostile-but-valid file ended, and the peak memory and time of the fresh child that read it. @internal */
export interface HostileFigure {
  readonly name: string;
  readonly bytes: number;
  readonly outcome: 'refused as stated' | 'read as stated' | string;
  readonly ok: boolean;
  readonly childRssBytes: number;
  readonly elapsedMs: number;
}

/**
 * The "hostile but valid" class: each file of `cases`, written by pyarrow (`scale` multiplies the sizes), read as a
 * run reads a local Stage 3 shard in a fresh child with the heap and time bounds of the damaged inputs. @internal
 */
export const runHostile = async (
  o: {
    readonly scale?: number;
    readonly heapMb?: number;
    readonly timeoutMs?: number;
    readonly cases?: readonly HostileCase[];
  } = {},
): Promise<HostileFigure[]> => {
  if (!existsSync(CHILD)) throw new Error(`${CHILD} is missing: run \`pnpm build\` first`);
  const dir = await mkdtemp(join(tmpdir(), 'maou-hostile-'));
  const figures: HostileFigure[] = [];
  try {
    for (const [i, c] of (o.cases ?? HOSTILE_CASES).entries()) {
      const path = join(dir, `hostile-${i}.feather`);
      writeHostileFile(c, path, o.scale);
      const slot = new Slot(o.heapMb ?? 512, o.timeoutMs ?? 20_000);
      const started = Date.now();
      const ended = await slot.run({ id: i, target: 'stage3-feather', path });
      const elapsedMs = Date.now() - started;
      slot.close();
      const got =
        typeof ended === 'string'
          ? ended
          : `${ended.outcome.kind}: ${'message' in ended.outcome ? ended.outcome.message : ''}`;
      const ok =
        typeof ended !== 'string' &&
        (c.refused === null
          ? ended.outcome.kind === 'accepted'
          : ended.outcome.kind === 'rejected' && c.refused.test(ended.outcome.message));
      const outcome = ok ? (c.refused ? 'refused as stated' : 'read as stated') : got.slice(0, 300);
      figures.push({ name: c.name, bytes: statSync(path).size, outcome, ok, childRssBytes: slot.maxRss, elapsedMs });
      await rm(path, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
};
