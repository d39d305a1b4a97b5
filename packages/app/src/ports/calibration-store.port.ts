/** Persists calibration results keyed by an environment signature. @public */
export interface CalibrationStorePort {
  load(key: string): Promise<unknown | null>;
  save(key: string, value: unknown): Promise<void>;
}
