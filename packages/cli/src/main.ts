#!/usr/bin/env node
// The `maou` binary; the package's entry point for code is index.ts, which runs nothing when imported.
import { run } from './run';

void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
