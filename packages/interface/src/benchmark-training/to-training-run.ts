import type { CalibrationMode } from '@maou/bench-app';
import { checkBoundedNumbers, err, ok, type Result, type ValidationIssue } from '@maou/bench-domain';
import { toBatchStudy, type ValidatedBatchStudy } from './batch-study-options';
import type { BenchmarkTrainingArgs } from './raw-options';
import { toBenchmarkConfig, type BenchmarkDefaults, type ValidatedBenchmarkConfig } from './to-benchmark-config';

/** Loader calibration as the flags ask for it. @public */
export interface CalibrationRequest {
  readonly mode: CalibrationMode;
  readonly budgetMs?: number;
  /** loader settings the user fixed; calibration leaves them alone */
  readonly fixed: { readonly workers?: number; readonly prefetchFactor?: number; readonly batchSize?: number };
  /** `--calibration-file`; absent = the machine's default */
  readonly file?: string;
}

/** A validated `benchmark-training` run: one measured run, or a batch study (`study` not null). @public */
export interface ValidatedTrainingRun extends ValidatedBenchmarkConfig {
  readonly study: ValidatedBatchStudy | null;
  readonly calibration: CalibrationRequest;
}

/** `--force-calibration` implies calibrating; calibration is off unless asked for, since it changes what is measured. @public */
export const calibrationMode = (args: {
  readonly calibrate?: boolean;
  readonly forceCalibration?: boolean;
}): CalibrationMode => (args.forceCalibration ? 'force' : args.calibrate ? 'calibrate' : 'off');

// Every calibration flag is refused with a study, not only --calibrate: the study never reads them, and ignoring one
// is a silent fallback. Calibration would change the batch size under the sweep.
const calibrationInStudy = (args: BenchmarkTrainingArgs): ValidationIssue[] => {
  const given =
    args.calibrate || args.forceCalibration
      ? args.forceCalibration
        ? '--force-calibration'
        : '--calibrate'
      : args.calibrationBudget !== undefined
        ? '--calibration-budget'
        : args.calibrationFile !== undefined
          ? '--calibration-file'
          : null;
  return given
    ? [
        {
          field: given,
          message:
            'cannot be combined with --batch-sizes, --learning-rates or --find-max-batch (calibration picks its own batch size); calibrate in a separate run',
        },
      ]
    : [];
};

/** Every flag of `benchmark-training` checked before anything is touched; each issue names its flag. @public */
export const toTrainingRun = (
  args: BenchmarkTrainingArgs,
  defaults: BenchmarkDefaults,
): Result<ValidatedTrainingRun, ValidationIssue[]> => {
  const validated = toBenchmarkConfig(args, defaults);
  const study = toBatchStudy(args);
  const issues = [
    ...(validated.ok ? [] : validated.error),
    ...(study.ok ? [] : study.error),
    ...checkBoundedNumbers([['--calibration-budget', args.calibrationBudget, { min: 0.1, max: 3600 }]]),
    ...(study.ok && study.value ? calibrationInStudy(args) : []),
  ];
  if (!validated.ok || !study.ok || issues.length) return err(issues);
  const calibration: CalibrationRequest = {
    mode: calibrationMode(args),
    ...(args.calibrationBudget === undefined ? {} : { budgetMs: args.calibrationBudget * 1000 }),
    fixed: { workers: args.dataloaderWorkers, prefetchFactor: args.prefetchFactor, batchSize: args.batchSize },
    ...(args.calibrationFile === undefined ? {} : { file: args.calibrationFile }),
  };
  return ok({ ...validated.value, study: study.value, calibration });
};
