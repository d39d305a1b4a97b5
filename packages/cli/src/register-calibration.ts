import os from 'node:os';
import { join } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import type { Options } from 'yargs';
import { TOKENS, type CalibrationMode, type LoggerPort } from '@maou/bench-app';
import { JsonCalibrationStoreAdapter } from '@maou/bench-infra';

/** Where calibration results live unless `--calibration-file` says otherwise. @public */
export const defaultCalibrationFile = (): string =>
  join(process.env.MAOU_BENCH_CACHE ?? join(os.homedir(), '.cache', 'maou-bench'), 'calibration.json');

/** Flags of loader calibration, for commands that train. @public */
export const CALIBRATION_OPTIONS: Record<string, Options> = {
  calibrate: { type: 'boolean', group: 'Calibration:', describe: 'measure loader settings (workers, prefetch) before the run, or reuse a fresh cached result; --no-calibrate turns it off' },
  'force-calibration': { type: 'boolean', group: 'Calibration:', describe: 'measure again even when a cached result is valid' },
  'calibration-budget': { type: 'number', group: 'Calibration:', describe: 'seconds the calibration may take, 0.1 to 3600 (default 20)' },
  'calibration-file': { type: 'string', group: 'Calibration:', describe: 'JSON file of cached calibration results (default ~/.cache/maou-bench/calibration.json)' },
};

/** `--force-calibration` implies calibrating; calibration is off unless asked for, since it changes what is measured. @public */
export const calibrationMode = (args: { readonly calibrate?: boolean; readonly forceCalibration?: boolean }): CalibrationMode =>
  args.forceCalibration ? 'force' : args.calibrate ? 'calibrate' : 'off';

/** Binds the calibration store (an atomic JSON file). Call after the logger is registered. @public */
export const registerCalibration = (child: DependencyContainer, file = defaultCalibrationFile()): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  child.registerInstance(TOKENS.CalibrationStore, new JsonCalibrationStoreAdapter(file, logger));
};
