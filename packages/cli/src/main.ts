#!/usr/bin/env node
import { buildCli } from './cli';

buildCli(process.argv.slice(2))
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(`maou: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = process.exitCode || 1;
  });
