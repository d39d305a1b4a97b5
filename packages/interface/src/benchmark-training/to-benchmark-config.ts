import type { BackendChoice } from '@maou/bench-use-cases';
import * as S from '@maou/bench-domain';
import { err, ok, type BenchmarkConfig, type Result, type Stage, type ValidationIssue } from '@maou/bench-domain';
import { pickDataSource, type SourceDefaults } from './data-source-spec';
import { checkModelOptions } from './model-options';
import { checkAdaptiveBatchOptions } from './adaptive-batch-options';
import { checkNumbers } from './numeric-rules';
import { combinationIssues } from './flag-combinations';
import { resolveCompute, resolveDevice } from './resolve-compute';
import { resolveLoader } from './resolve-loader';
import { resolveOutputs, resolveTiming } from './resolve-run';
import { resolveTraining, resolveTrainingChoices } from './resolve-training';
import type { RawBenchmarkTrainingOptions as Raw } from './raw-options';

/** A validated configuration and the notes the user should see about accepted-but-changed options. @public */
export interface ValidatedBenchmarkConfig {
  readonly config: BenchmarkConfig;
  readonly warnings: readonly string[];
}

/**
 * What the composition root hands the options besides the flags: the plug-ins, the sample cache, and the resource
 * plan's decisions (the domain's `planResources`, made from the limits and the flags `--batch-size`,
 * `--stageN-batch-size`, `--dataloader-workers` and `--threads`), which the configuration takes as they are.
 * @public
 */
export interface BenchmarkDefaults extends SourceDefaults {
  /** the registered compute backends `--gpu` may name (the compute package's plug-ins, via the composition root) */
  readonly backends: readonly BackendChoice[];
  /** the plan's loader workers */
  readonly workers: number;
  /** the plan's backend threads; 'auto' (the backend decides) when absent */
  readonly threads?: number;
  /** the plan's batch size: the flag for the run's stage, a memory cap or maou's 256 */
  readonly batchSize: number;
}

const notes = (raw: Raw, backend: BackendChoice | undefined): string[] => [
  ...(raw.inputCacheMode === 'mmap' ? ['--input-cache-mode mmap is deprecated and treated as file'] : []),
  ...(raw.gceParameter !== undefined
    ? ['--gce-parameter is accepted for compatibility; the Stage 3 policy loss is KL divergence and does not use it']
    : []),
  ...(raw.cacheTransforms
    ? ['--cache-transforms is accepted for compatibility; records need no transform, so nothing is cached']
    : []),
  ...(raw.compilation || raw.stage12Compilation
    ? [
        '--compilation: tfjs has no graph compiler; kernels are fused and cached by the backend on first use, which the warm-up measures',
      ]
    : []),
  ...(raw.inputFilePacked
    ? ['--input-file-packed is detected from the file itself; the flag is accepted and not needed']
    : []),
  // what the chosen backend's plug-in says every run on it should know (the cpu backend: how slow it is)
  ...(backend?.note ? [backend.note] : []),
];

/**
 * Turns raw command-line options into a `BenchmarkConfig`, checking every range, choice and combination before any
 * file or network is touched. Every issue names its flag; each block of the configuration has its resolver.
 * @public
 */
export const toBenchmarkConfig = (
  raw: Raw,
  defaults: BenchmarkDefaults,
): Result<ValidatedBenchmarkConfig, ValidationIssue[]> => {
  const issues = [...checkNumbers(raw), ...combinationIssues(raw)];
  const stage = (issues.some((i) => i.field === '--stage') ? S.STAGE.default : (raw.stage ?? S.STAGE.default)) as Stage;
  const choices = resolveTrainingChoices(raw, issues);
  const device = resolveDevice(raw, defaults.backends, issues);
  const modelChecks = checkModelOptions(raw, choices.preset, stage);
  issues.push(...modelChecks.issues);
  const adaptiveChecks = checkAdaptiveBatchOptions(raw, stage);
  issues.push(...adaptiveChecks.issues);
  // one seed for the run: splits, shuffles, weights and the source's sampling or generation
  const seed = raw.seed ?? S.SEED.default;
  const source = pickDataSource(
    raw as Readonly<Record<string, unknown>>,
    { stage, seed, ...(raw.sampleRatio !== undefined ? { sampleRatio: raw.sampleRatio } : {}) },
    defaults,
  );
  if ('issues' in source) issues.push(...source.issues);
  if (issues.length || 'issues' in source) return err(issues);

  const config: BenchmarkConfig = {
    stage,
    source: source.spec,
    loader: resolveLoader(raw, { stage, seed, source: source.spec }, defaults),
    training: resolveTraining(raw, stage, choices, modelChecks.fields, adaptiveChecks.settings ?? undefined),
    compute: resolveCompute(raw, device, defaults.threads),
    ...resolveTiming(raw),
    ...resolveOutputs(raw),
  };
  return ok({
    config,
    warnings: [
      ...notes(
        raw,
        defaults.backends.find((b) => b.name === device.backend),
      ),
      ...modelChecks.warnings,
      ...adaptiveChecks.warnings,
      ...source.warnings,
    ],
  });
};
