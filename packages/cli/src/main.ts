#!/usr/bin/env node
// The `maou` binary; the package's entry point for code is index.ts, which runs nothing when imported.
import { stopQueueingSignals } from './early-signals'; // first: it must listen before the heavy modules load
import '@maou/bench-app/commands'; // next: its first module loads our tfjs-core copies before bench-infra needs one
import { endSignalStartup, listenToProcessSignals } from '@maou/bench-infra';
import { run } from './run';

// The binary owns its process: SIGINT/SIGTERM stop a run and exit (code that imports the packages keeps its own). A
// signal from start-up on is held until the command watches (then it stops before the first batch) or there is none.
listenToProcessSignals();
stopQueueingSignals();
void run(process.argv.slice(2)).then(async (code) => {
  process.exitCode = code;
  await endSignalStartup();
});
