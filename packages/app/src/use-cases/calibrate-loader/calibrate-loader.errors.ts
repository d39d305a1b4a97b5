/** No candidate produced a measurement (every one failed or the data yields no batch). @public */
export class CalibrationFailedError extends Error {
  override readonly name = 'CalibrationFailedError';
  constructor(readonly failures: readonly string[]) {
    super(`loader calibration measured no candidate: ${failures.join('; ') || 'no candidates'}`);
  }
}
