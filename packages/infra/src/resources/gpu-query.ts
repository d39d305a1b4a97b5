import { execFile } from 'node:child_process';

/** GPU utilisation and used memory of device 0, or null where `nvidia-smi` is absent or fails. @public */
export interface GpuReading {
  readonly utilPercent: number;
  readonly memoryBytes: number;
}

/** Asks `nvidia-smi` (path configurable, for tests) once; never throws. @public */
export const queryGpu = (command = 'nvidia-smi', timeoutMs = 2000): Promise<GpuReading | null> =>
  new Promise((resolve) => {
    execFile(command, ['--query-gpu=utilization.gpu,memory.used', '--format=csv,noheader,nounits'], { timeout: timeoutMs }, (error, stdout) => {
      if (error) return resolve(null);
      const [util, mem] = String(stdout).split('\n')[0]!.split(',').map((s) => Number(s.trim()));
      resolve(Number.isFinite(util) && Number.isFinite(mem) ? { utilPercent: util!, memoryBytes: mem! * 1024 * 1024 } : null);
    });
  });
