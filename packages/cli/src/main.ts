#!/usr/bin/env node
// The `maou` binary; the package's entry point for code is index.ts, which runs nothing when imported.
import { listenToProcessSignals } from '@maou/bench-infra';
import { run } from './run';

// The binary owns its process: SIGINT/SIGTERM stop a run and exit (code that imports the packages keeps its own).
listenToProcessSignals();
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
