import type { LrSchedulerName, ModelPreset, OptimizerName, ValidationIssue } from '@maou/bench-domain';

/** A flag's value, or the issue naming it. */
export type Parsed<T> = { readonly value: T } | { readonly issue: ValidationIssue };

/** The value, or `fallback` with the issue added to `issues` (so every flag is checked in one pass). */
export const take = <T>(p: Parsed<T>, issues: ValidationIssue[], fallback: T): T => {
  if ('issue' in p) {
    issues.push(p.issue);
    return fallback;
  }
  return p.value;
};

const normalise = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

// maou's display names and our snake_case names both resolve; matching ignores case and punctuation.
const SCHEDULERS: Readonly<Record<string, LrSchedulerName>> = {
  warmupcosinedecay: 'warmup_cosine_decay',
  cosineannealing: 'cosine_annealing',
  cosineannealinglr: 'cosine_annealing',
  step: 'step',
  steplr: 'step',
  none: 'none',
};

/** `--lr-scheduler` and `--stage12-lr-scheduler`. */
export const parseScheduler = (flag: string, raw: string): Parsed<LrSchedulerName> => {
  const value = SCHEDULERS[normalise(raw)];
  return value
    ? { value }
    : {
        issue: {
          field: flag,
          message: `unknown scheduler '${raw}'; choose warmup_cosine_decay, cosine_annealing, step or none`,
        },
      };
};

/** `--optimizer`. */
export const parseOptimizer = (raw: string): Parsed<OptimizerName> => {
  const v = raw.toLowerCase();
  return v === 'adamw' || v === 'sgd'
    ? { value: v }
    : { issue: { field: '--optimizer', message: `must be 'adamw' or 'sgd', got '${raw}'` } };
};

/** `--model-architecture`: maou's `resnet` (the default), `mlp-mixer` and `vit`, and `lite`, the shogi-optimised preset. */
export const parseArchitecture = (raw: string): Parsed<ModelPreset> => {
  const v = raw.toLowerCase();
  if (v === 'lite' || v === 'resnet' || v === 'mlp-mixer' || v === 'vit') return { value: v };
  return {
    issue: {
      field: '--model-architecture',
      message: `unknown architecture '${raw}'; choose resnet, mlp-mixer, vit or lite`,
    },
  };
};
