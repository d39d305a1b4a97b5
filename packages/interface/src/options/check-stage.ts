import type { Stage, ValidationIssue } from '@maou/bench-domain';

/** `--stage` narrowed to 1, 2 or 3, or the issue naming the flag. */
export const checkStage = (stage: number): { readonly stage: Stage } | { readonly issue: ValidationIssue } =>
  stage === 1 || stage === 2 || stage === 3
    ? { stage }
    : { issue: { field: '--stage', message: `must be 1, 2 or 3, got ${stage}` } };
