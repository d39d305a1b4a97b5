import { execFile } from 'node:child_process';

/** GPU utilisation, used and total memory of device 0, or null where `nvidia-smi` is absent or fails. @public */
export interface GpuReading {
  readonly utilPercent: number;
  readonly memoryBytes: number;
  readonly memoryTotalBytes: number;
}

/** Asks `nvidia-smi` (path configurable, for tests) once; never throws. @public */
export const queryGpu = (command = 'nvidia-smi', timeoutMs = 2000): Promise<GpuReading | null> =>
  new Promise((resolve) => {
    execFile(
      command,
      ['--query-gpu=utilization.gpu,memory.used,memory.total', '--format=csv,noheader,nounits'],
      { timeout: timeoutMs },
      (error, stdout) => {
        if (error) return resolve(null);
        const [util, mem, total] = String(stdout)
          .split('\n')[0]!
          .split(',')
          .map((s) => Number(s.trim()));
        const mib = 1024 * 1024;
        resolve(
          [util, mem, total].every(Number.isFinite)
            ? { utilPercent: util!, memoryBytes: mem! * mib, memoryTotalBytes: total! * mib }
            : null,
        );
      },
    );
  });
