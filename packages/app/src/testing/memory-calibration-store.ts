import type { CalibrationStorePort } from '../ports/calibration-store.port';

/** The calibration store's contract on a Map; values go through JSON, as they do in the file the cli uses. @public */
export class MemoryCalibrationStore implements CalibrationStorePort {
  readonly entries = new Map<string, unknown>();

  async load(key: string): Promise<unknown | null> {
    return this.entries.has(key) ? this.entries.get(key)! : null;
  }

  async save(key: string, value: unknown): Promise<void> {
    await this.update(key, () => value);
  }

  async update(key: string, change: (current: unknown | null) => unknown): Promise<void> {
    const next = change(await this.load(key));
    if (next !== undefined) this.entries.set(key, JSON.parse(JSON.stringify(next)));
  }
}
