import os from 'node:os';
import { join } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { TOKENS, type LoggerPort } from '@maou/bench-app';
import { JsonCalibrationStoreAdapter } from '@maou/bench-infra';

/** Where calibration results live unless `--calibration-file` says otherwise. @public */
export const defaultCalibrationFile = (): string =>
  join(process.env.MAOU_BENCH_CACHE ?? join(os.homedir(), '.cache', 'maou-bench'), 'calibration.json');

/** Binds the calibration store (an atomic JSON file). Call after the logger is registered. @public */
export const registerCalibration = (child: DependencyContainer, file = defaultCalibrationFile()): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  child.registerInstance(TOKENS.CalibrationStore, new JsonCalibrationStoreAdapter(file, logger));
};
