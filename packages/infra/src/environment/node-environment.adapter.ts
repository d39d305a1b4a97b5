import os from 'node:os';
import { version_core as tfjsVersion } from '@tensorflow/tfjs-core';
import type { EnvironmentPort, HostEnvironment } from '@maou/bench-use-cases';

/** Node, OS and CPU facts of this process; the tool's own version is passed in by the binary. @public */
export class NodeEnvironmentAdapter implements EnvironmentPort {
  constructor(private readonly toolVersion: string) {}

  describe(): HostEnvironment {
    const cpus = os.cpus();
    return {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      arch: os.arch(),
      cpus: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
      cpu_model: cpus[0]?.model.trim() ?? 'unknown',
      memory_bytes: os.totalmem(),
      tfjs_version: tfjsVersion,
      maou_bench_version: this.toolVersion,
    };
  }
}
