import { parseMachineProfile, recordRun, type MachineProfile, type RunSeries } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';
import type { CalibrationStorePort } from '../../ports/calibration-store.port';
import type { HostEnvironment } from '../../ports/environment.port';
import type { LoggerPort } from '../../ports/logger.port';

/**
 * This machine's record (machine-profile.ts: its wander and its fall), kept in the calibration store under the host and
 * backend that ran it: read before a run to size its run-to-run term and its fall, extended with the run's batches
 * after it. The store is a cache: a record it cannot read or write costs the run those measurements, said in a
 * warning, never the run itself. The key is the one the wander alone was kept under, so older records are read.
 */
export class MachineRecord {
  private constructor(
    private readonly store: CalibrationStorePort,
    private readonly logger: LoggerPort,
    private readonly key: string,
    readonly kept: MachineProfile | null,
  ) {}

  static async open(
    store: CalibrationStorePort,
    logger: LoggerPort,
    host: HostEnvironment,
    backend: BackendInfo,
  ): Promise<MachineRecord> {
    const key = `machine-wander ${JSON.stringify({
      cpus: host.cpus,
      memoryBytes: host.memory_bytes,
      os: host.platform,
      cpu: host.cpu_model,
      backend: backend.name,
      threads: backend.threads,
    })}`;
    let kept: MachineProfile | null = null;
    try {
      const stored = await store.load(key);
      kept = parseMachineProfile(stored);
      if (stored !== null && kept === null)
        logger.warn(
          { key },
          'machine_record_ignored reason="not a record of this version"; the run assumes the spread and the fall',
        );
    } catch (e) {
      logger.warn({ key, error: String(e) }, 'machine_record_unreadable; the run assumes the spread and the fall');
    }
    return new MachineRecord(store, logger, key, kept);
  }

  /** Adds a finished run (its batches as the stop watch judged them) to the record. */
  async add(series: RunSeries, steadyStart: number, minWarmup: number): Promise<void> {
    try {
      // extends the record as stored now, not as read before the run: a run that finished meanwhile keeps its part
      await this.store.update(
        this.key,
        (current) => recordRun(parseMachineProfile(current), { series, minWarmup, steadyStart }) ?? undefined,
      );
    } catch (e) {
      this.logger.warn({ key: this.key, error: String(e) }, 'machine_record_not_saved');
    }
  }
}
