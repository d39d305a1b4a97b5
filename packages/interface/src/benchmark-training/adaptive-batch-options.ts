import * as S from '@maou/bench-domain';
import {
  MAOU_ADAPTIVE_BATCH_DEFAULTS,
  describeDefault as dflt,
  describeRange,
  type AdaptiveBatchSettings,
  type Stage,
  type ValidationIssue,
} from '@maou/bench-domain';
import { optionGroup, type OptionTable } from '../options/option-table';

const adaptive = optionGroup('Adaptive batch (maou HEAD, Stage 3):');

/** `--adaptive-batch` and its five knobs, with maou HEAD's defaults. @public */
export const ADAPTIVE_BATCH_OPTIONS = {
  'adaptive-batch': adaptive.flag(
    'change the gradient accumulation steps during the run from the measured gradient noise scale (Stage 3 only: no effect at Stages 1 and 2; the knobs below act only with it)',
  ),
  'adaptive-batch-min-steps': adaptive.num(
    `fewest accumulation steps, at least ${S.ADAPTIVE_BATCH_MIN_STEPS.bounds.min} ${dflt(S.ADAPTIVE_BATCH_MIN_STEPS)}`,
  ),
  'adaptive-batch-max-steps': adaptive.num(
    `most accumulation steps, at least ${S.ADAPTIVE_BATCH_MAX_STEPS.bounds.min}; a power of 2 is best (the steps round to powers of 2, then clip to this) ${dflt(S.ADAPTIVE_BATCH_MAX_STEPS)}`,
  ),
  'adaptive-batch-interval': adaptive.num(`optimiser steps between adjustments ${dflt(S.ADAPTIVE_BATCH_INTERVAL)}`),
  'adaptive-batch-smoothing': adaptive.num(
    `EMA factor of the noise-scale estimates, ${describeRange(S.ADAPTIVE_BATCH_SMOOTHING.bounds)} ${dflt(S.ADAPTIVE_BATCH_SMOOTHING)}`,
  ),
  'adaptive-batch-measurement-interval': adaptive.num(
    `optimiser steps between noise-scale measurements ${dflt(S.ADAPTIVE_BATCH_MEASUREMENT_INTERVAL)}`,
  ),
} as const satisfies OptionTable;

/** The raw values of those flags. @public */
export interface RawAdaptiveBatchOptions {
  readonly adaptiveBatch?: boolean;
  readonly adaptiveBatchMinSteps?: number;
  readonly adaptiveBatchMaxSteps?: number;
  readonly adaptiveBatchInterval?: number;
  readonly adaptiveBatchSmoothing?: number;
  readonly adaptiveBatchMeasurementInterval?: number;
  readonly gradientAccumulationSteps?: number;
}

/**
 * click's IntRange refusals, worded as click words them; the upper bound is ours (maou's click ranges have no upper
 * end: past it a value is a typo, not a plan).
 */
const intAtLeast = (setting: S.Setting, v: number | undefined): ValidationIssue | null => {
  if (v === undefined) return null;
  const { flag, bounds } = setting;
  const { min, max } = bounds;
  if (!Number.isInteger(v)) return { field: flag, message: `'${v}' is not a valid integer.` };
  if (v < min) return { field: flag, message: `${v} is not in the range x>=${min}.` };
  if (v > max) return { field: flag, message: `${v} is above ${max.toLocaleString('en-US')}: a typo, not a plan` };
  return null;
};

/**
 * Checks the adaptive-batch flags before any I/O with maou's bounds and messages: click's ranges (min/max steps ≥ 2,
 * intervals ≥ 1, smoothing in [0.01, 1]) and, with `--adaptive-batch`, `_build_adaptive_batch_config`'s min ≤ max.
 * What maou accepts and ignores is accepted with a note saying it has no effect: a knob without `--adaptive-batch`,
 * `--adaptive-batch` outside Stage 3. `--gradient-accumulation-steps` is ignored with a note, as maou warns.
 * @public
 */
export const checkAdaptiveBatchOptions = (
  raw: RawAdaptiveBatchOptions,
  stage: Stage,
): { settings: AdaptiveBatchSettings | null; issues: ValidationIssue[]; warnings: string[] } => {
  const issues = [
    intAtLeast(S.ADAPTIVE_BATCH_MIN_STEPS, raw.adaptiveBatchMinSteps),
    intAtLeast(S.ADAPTIVE_BATCH_MAX_STEPS, raw.adaptiveBatchMaxSteps),
    intAtLeast(S.ADAPTIVE_BATCH_INTERVAL, raw.adaptiveBatchInterval),
    intAtLeast(S.ADAPTIVE_BATCH_MEASUREMENT_INTERVAL, raw.adaptiveBatchMeasurementInterval),
  ].filter((i): i is ValidationIssue => i !== null);
  const smoothing = raw.adaptiveBatchSmoothing;
  const { min: sMin, max: sMax } = S.ADAPTIVE_BATCH_SMOOTHING.bounds;
  if (smoothing !== undefined && !(smoothing >= sMin && smoothing <= sMax))
    issues.push({
      field: S.ADAPTIVE_BATCH_SMOOTHING.flag,
      message: `${smoothing} is not in the range ${sMin}<=x<=${sMax.toFixed(1)}.`,
    });
  const d = MAOU_ADAPTIVE_BATCH_DEFAULTS;
  const settings: AdaptiveBatchSettings = {
    minSteps: raw.adaptiveBatchMinSteps ?? d.minSteps,
    maxSteps: raw.adaptiveBatchMaxSteps ?? d.maxSteps,
    interval: raw.adaptiveBatchInterval ?? d.interval,
    smoothing: smoothing ?? d.smoothing,
    measurementInterval: raw.adaptiveBatchMeasurementInterval ?? d.measurementInterval,
  };
  const knobs = (Object.keys(ADAPTIVE_BATCH_OPTIONS) as (keyof typeof ADAPTIVE_BATCH_OPTIONS)[])
    .filter((flag) => flag !== 'adaptive-batch')
    .filter((flag) => raw[camel(flag)] !== undefined)
    .map((flag) => `--${flag}`);
  // maou range-checks every knob (click) but builds the adaptive config, and checks min <= max, only when asked
  if (!raw.adaptiveBatch)
    return {
      settings: null,
      issues,
      warnings: knobs.length
        ? [
            `${knobs.join(', ')} ${knobs.length > 1 ? 'have' : 'has'} no effect without --adaptive-batch (maou ignores ${knobs.length > 1 ? 'them' : 'it'} too)`,
          ]
        : [],
    };
  if (!issues.length && settings.minSteps > settings.maxSteps)
    issues.push({
      field: '--adaptive-batch-min-steps',
      message: `--adaptive-batch-min-steps (${settings.minSteps}) must be <= --adaptive-batch-max-steps (${settings.maxSteps})`,
    });
  if (stage !== 3)
    return {
      settings: null,
      issues,
      warnings: [
        `--adaptive-batch${knobs.length ? ` (and ${knobs.join(', ')})` : ''} has no effect at Stage ${stage}: it applies to Stage 3 only, so this run trains with fixed accumulation (--gradient-accumulation-steps), as maou does`,
      ],
    };
  // maou's AdaptiveBatchConfig warns about the same three.
  const warnings: string[] = [];
  if (raw.gradientAccumulationSteps !== undefined && raw.gradientAccumulationSteps > 1)
    warnings.push(
      `--gradient-accumulation-steps ${raw.gradientAccumulationSteps} is ignored with --adaptive-batch: the run starts at --adaptive-batch-min-steps ${settings.minSteps}, as maou does`,
    );
  if (settings.measurementInterval > settings.interval)
    warnings.push(
      `--adaptive-batch-measurement-interval ${settings.measurementInterval} > --adaptive-batch-interval ${settings.interval}: an adjustment window may hold no measurement`,
    );
  // maou rounds the target to a power of 2, then clips it to [min, max]: a bound off the powers is reachable itself
  const offPowers = (
    [
      ['--adaptive-batch-min-steps', settings.minSteps],
      ['--adaptive-batch-max-steps', settings.maxSteps],
    ] as const
  ).filter(([, v]) => !isPowerOfTwo(v));
  for (const [flag, v] of offPowers)
    warnings.push(
      `${flag} ${v} is not a power of 2: the steps are rounded to a power of 2 and then clipped to it, so a run may use ${v} steps (maou recommends powers of 2 and accepts this too)`,
    );
  if (settings.minSteps === settings.maxSteps)
    warnings.push(
      `--adaptive-batch-min-steps = --adaptive-batch-max-steps = ${settings.minSteps}: the noise scale is measured but the steps never change`,
    );
  return { settings, issues, warnings };
};

const isPowerOfTwo = (v: number): boolean => Number.isInteger(Math.log2(v));

const camel = (flag: string): keyof RawAdaptiveBatchOptions =>
  flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof RawAdaptiveBatchOptions;
