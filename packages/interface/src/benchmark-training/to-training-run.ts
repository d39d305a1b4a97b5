import { hasMemoryLimit, type BackendChoice, type CalibrationMode } from '@maou/bench-use-cases';
import {
  CALIBRATION_BUDGET,
  checkBoundedNumbers,
  err,
  ok,
  type Result,
  type ValidationIssue,
} from '@maou/bench-domain';
import { toBatchStudy, type ValidatedBatchStudy } from './batch-study-options';
import type { BenchmarkTrainingArgs } from './raw-options';
import { toBenchmarkConfig, type BenchmarkDefaults, type ValidatedBenchmarkConfig } from './to-benchmark-config';

/** Loader calibration as the flags ask for it. @public */
export interface CalibrationRequest {
  readonly mode: CalibrationMode;
  readonly budgetMs?: number;
  /** loader settings the user fixed; calibration leaves them alone */
  readonly fixed: { readonly workers?: number; readonly prefetchFactor?: number };
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

// The search needs a memory limit to find (see `hasMemoryLimit`). Only a backend named by --gpu is known here; with no
// --gpu or auto, the backend that starts decides, and the search itself refuses one without a limit.
const searchWithoutLimit = (
  args: BenchmarkTrainingArgs,
  backend: string,
  backends: readonly BackendChoice[],
): ValidationIssue[] => {
  const chosen = backends.find((b) => b.name === backend);
  if (!args.findMaxBatch || chosen === undefined || hasMemoryLimit(chosen)) return [];
  const bounded = backends.filter(hasMemoryLimit).map((b) => `--gpu ${b.usage}`);
  const choices = bounded.length > 1 ? `${bounded.slice(0, -1).join(', ')} or ${bounded.at(-1)!}` : bounded.join('');
  return [
    {
      field: '--find-max-batch',
      message: `cannot run with --gpu ${args.gpu ?? chosen.usage}: the ${chosen.name} backend has no memory limit to search against; use ${choices}`,
    },
  ];
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
    ...checkBoundedNumbers([[CALIBRATION_BUDGET.flag, args.calibrationBudget, CALIBRATION_BUDGET.bounds]]),
    ...(study.ok && study.value ? calibrationInStudy(args) : []),
    ...(validated.ok ? searchWithoutLimit(args, validated.value.config.compute.backend, defaults.backends) : []),
  ];
  if (!validated.ok || !study.ok || issues.length) return err(issues);
  const calibration: CalibrationRequest = {
    mode: calibrationMode(args),
    ...(args.calibrationBudget === undefined ? {} : { budgetMs: args.calibrationBudget * 1000 }),
    fixed: { workers: args.dataloaderWorkers, prefetchFactor: args.prefetchFactor },
    ...(args.calibrationFile === undefined ? {} : { file: args.calibrationFile }),
  };
  return ok({ ...validated.value, study: study.value, calibration });
};
