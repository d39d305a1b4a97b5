import { parseWanderProfile, recordRun, type BatchTiming, type WanderProfile } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine';
import type { CalibrationStorePort } from '../../ports/calibration-store.port';
import type { HostEnvironment } from '../../ports/environment.port';
import type { LoggerPort } from '../../ports/logger.port';

/**
 * This machine's wander (machine-wander.ts), kept in the calibration store under the host and backend that ran it: read
 * before a run to size its run-to-run term, extended with the run's steady batches after it. The store is a cache: a
 * record it cannot read or write costs the run that term's measurement, said in a warning, never the run itself.
 */
export class MachineWanderRecord {
  private constructor(
    private readonly store: CalibrationStorePort,
    private readonly logger: LoggerPort,
    private readonly key: string,
    readonly kept: WanderProfile | null,
  ) {}

  static async open(
    store: CalibrationStorePort,
    logger: LoggerPort,
    host: HostEnvironment,
    backend: BackendInfo,
  ): Promise<MachineWanderRecord> {
    const key = `machine-wander ${JSON.stringify({
      cpus: host.cpus,
      memoryBytes: host.memory_bytes,
      os: host.platform,
      cpu: host.cpu_model,
      backend: backend.name,
      threads: backend.threads,
    })}`;
    let kept: WanderProfile | null = null;
    try {
      const stored = await store.load(key);
      kept = parseWanderProfile(stored);
      if (stored !== null && kept === null)
        logger.warn(
          { key },
          'machine_wander_ignored reason="not a record of this version"; the run assumes the spread',
        );
    } catch (e) {
      logger.warn({ key, error: String(e) }, 'machine_wander_unreadable; the run assumes the spread');
    }
    return new MachineWanderRecord(store, logger, key, kept);
  }

  /** Adds a finished run's steady batches (from `steadyStart`) to the record. */
  async add(timings: readonly BatchTiming[], steadyStart: number): Promise<void> {
    const next = recordRun(
      this.kept,
      timings.slice(steadyStart).map((t) => t.wallMs),
    );
    if (!next) return;
    try {
      await this.store.save(this.key, next);
    } catch (e) {
      this.logger.warn({ key: this.key, error: String(e) }, 'machine_wander_not_saved');
    }
  }
}
