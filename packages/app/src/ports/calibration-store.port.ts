/** Persists calibration results keyed by an environment signature. @public */
export interface CalibrationStorePort {
  load(key: string): Promise<unknown | null>;
  save(key: string, value: unknown): Promise<void>;
  /**
   * Stores what `change` makes of the value kept under `key` now (null: none), with no other save or update in
   * between, so runs that extend one record at once each keep their part. `undefined` from `change` writes nothing.
   */
  update(key: string, change: (current: unknown | null) => unknown): Promise<void>;
}
