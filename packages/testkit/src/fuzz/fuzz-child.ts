import { readFileSync } from 'node:fs';
import { FUZZ_TARGETS, type FuzzOutcome } from './fuzz-targets';

/** One input for the child: which reader, which file. @internal */
export interface FuzzRequest {
  readonly id: number;
  readonly target: string;
  readonly path: string;
}

/** The child's answer, with its peak resident memory so far. @internal */
export interface FuzzReply {
  readonly id: number;
  readonly outcome: FuzzOutcome;
  readonly maxRssBytes: number;
}

// This process's own peak: Linux keeps getrusage's maxRSS across exec, so a child forked from a large parent (a jest
// worker at 1.2 GB) reported the parent's peak; VmHWM belongs to the new address space alone.
const peakRssBytes = (): number => {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // not Linux: getrusage below
  }
  return process.resourceUsage().maxRSS * 1024;
};

// A child process per worker slot: a damaged input that hangs, aborts or exhausts the heap takes down only this
// process, which the runner sees and replaces.
if (require.main === module && process.send) {
  process.on('message', (req: FuzzRequest) => {
    const target = FUZZ_TARGETS[req.target];
    const done = (outcome: FuzzOutcome): void => {
      process.send!({ id: req.id, outcome, maxRssBytes: peakRssBytes() } satisfies FuzzReply);
    };
    if (!target) return done({ kind: 'untyped', message: `no fuzz target ${req.target}` });
    // Collect the previous inputs' garbage first, so the peak measures one input, not when V8 last happened to run.
    (globalThis as { gc?: () => void }).gc?.();
    target.read(req.path).then(done, (e: unknown) => done({ kind: 'untyped', message: `escaped: ${String(e)}` }));
  });
}
