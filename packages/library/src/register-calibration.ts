import os from 'node:os';
import type { DependencyContainer } from '@maou/bench-use-cases';
import { TOKENS, type LoggerPort } from '@maou/bench-use-cases';
import { defaultCalibrationFileIn } from '@maou/bench-interface';
import { JsonCalibrationStoreAdapter } from '@maou/bench-infra';

/** Where calibration results live unless `--calibration-file` says otherwise (the interface decides it). @public */
export const defaultCalibrationFile = (): string =>
  defaultCalibrationFileIn(os.homedir(), process.env.MAOU_BENCH_CACHE);

/** Binds the calibration store (an atomic JSON file). Call after the logger is registered. @public */
export const registerCalibration = (child: DependencyContainer, file = defaultCalibrationFile()): void => {
  const logger = child.resolve<LoggerPort>(TOKENS.Logger);
  child.registerInstance(TOKENS.CalibrationStore, new JsonCalibrationStoreAdapter(file, logger));
};
