import { buildCli } from './cli';
import { shippedPlugIns, type PlugIns } from '@maou/bench-app/commands';
import { helpPointer, UsageError } from '@maou/bench-app/commands';

/**
 * `maou` in-process: runs the command line `argv` (without the node and script paths) and resolves to its exit code
 * (0 done, 1 failed, 2 usage error, 130/143 stopped by a signal). Output goes to stdout/stderr as the binary's does;
 * the host's `process.exitCode` is left as it was and the process is never exited. `plugIns` replaces the shipped
 * backends and datasources (a registry with more registered, say).
 * @public
 */
export const run = async (argv: readonly string[], plugIns: PlugIns = shippedPlugIns()): Promise<number> => {
  const host = process.exitCode;
  process.exitCode = undefined;
  try {
    await buildCli(argv, plugIns).parseAsync();
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`maou: ${error.message}\n${helpPointer(error.command)}\n`);
      return error.exitCode;
    }
    process.stderr.write(`maou: ${error instanceof Error ? error.message : String(error)}\n`);
    return Number(process.exitCode || 1);
  } finally {
    process.exitCode = host;
  }
};
