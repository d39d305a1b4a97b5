import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CalibrationStorePort, LoggerPort } from '@maou/bench-use-cases';
import { writeFileAtomic } from '../files/atomic-file';
import { CALIBRATION_FILE } from '../files/output-kinds';
import { withFileLock, type FileLockOptions } from '../files/file-lock';

const FORMAT_VERSION = 1;

/** A calibration file written by a newer maou-bench: neither read nor rewritten (that would lose its entries). */
class NewerCalibrationFormat extends Error {
  constructor(path: string, version: number) {
    super(
      `calibration file ${path} has formatVersion ${version}, newer than this maou-bench reads (${FORMAT_VERSION}); it is left as it is: run the newer maou-bench, or name another --calibration-file`,
    );
    this.name = 'NewerCalibrationFormat';
  }
}
interface StoreFile {
  readonly formatVersion: typeof FORMAT_VERSION;
  readonly entries: Record<string, unknown>;
}

/**
 * Calibration results in one JSON file, keyed by environment signature. A calibration file this build cannot read
 * (corrupt JSON, entries that are not an object) is ignored with a warning and replaced on the next save; one of a
 * newer format version is refused, by name, and never rewritten; any other file is never replaced (the output rule
 * in `atomic-file.ts`). Writes go to a temp file renamed over the old one, so a
 * crash never leaves a half-written file. A save or an update reads, changes and writes under a lock file, so runs
 * saving at once keep each other's entries, and runs extending one entry at once each keep their change.
 * @public
 */
export class JsonCalibrationStoreAdapter implements CalibrationStorePort {
  constructor(
    private readonly path: string,
    private readonly logger: LoggerPort,
    private readonly lock: FileLockOptions = {},
  ) {}

  async load(key: string): Promise<unknown | null> {
    return (await this.readEntries())[key] ?? null;
  }

  async save(key: string, value: unknown): Promise<void> {
    await this.update(key, () => value);
  }

  async update(key: string, change: (current: unknown | null) => unknown): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await withFileLock(
      this.path,
      async () => {
        const kept = await this.readEntries();
        const next = change(kept[key] ?? null);
        if (next === undefined) return;
        const body: StoreFile = { formatVersion: FORMAT_VERSION, entries: { ...kept, [key]: next } };
        await writeFileAtomic(this.path, `${JSON.stringify(body, null, 2)}\n`, CALIBRATION_FILE);
      },
      this.lock,
    );
  }

  private async readEntries(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      this.logger.warn(
        { path: this.path, error: String(e) },
        `calibration_cache_unreadable path=${this.path}; ignoring it`,
      );
      return {};
    }
    try {
      const parsed = JSON.parse(text) as { formatVersion?: unknown; entries?: unknown };
      if (typeof parsed?.formatVersion === 'number' && parsed.formatVersion > FORMAT_VERSION)
        throw new NewerCalibrationFormat(this.path, parsed.formatVersion);
      if (parsed?.formatVersion === FORMAT_VERSION && typeof parsed.entries === 'object' && parsed.entries !== null)
        return parsed.entries as Record<string, unknown>;
      this.logger.warn({ path: this.path }, `calibration_cache_ignored path=${this.path} reason="unknown format"`);
    } catch (e) {
      if (e instanceof NewerCalibrationFormat) throw e;
      this.logger.warn(
        { path: this.path, error: String(e) },
        `calibration_cache_ignored path=${this.path} reason="corrupt JSON"`,
      );
    }
    return {};
  }
}
