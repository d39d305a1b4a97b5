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

// A child process per worker slot: a damaged input that hangs, aborts or exhausts the heap takes down only this
// process, which the runner sees and replaces.
if (require.main === module && process.send) {
  process.on('message', (req: FuzzRequest) => {
    const target = FUZZ_TARGETS[req.target];
    const done = (outcome: FuzzOutcome): void => {
      process.send!({ id: req.id, outcome, maxRssBytes: process.resourceUsage().maxRSS * 1024 } satisfies FuzzReply);
    };
    if (!target) return done({ kind: 'untyped', message: `no fuzz target ${req.target}` });
    // Collect the previous inputs' garbage first, so the peak measures one input, not when V8 last happened to run.
    (globalThis as { gc?: () => void }).gc?.();
    target.read(req.path).then(done, (e: unknown) => done({ kind: 'untyped', message: `escaped: ${String(e)}` }));
  });
}
