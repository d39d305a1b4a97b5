import { candidateBackends, type BackendChoice } from '@maou/bench-use-cases';
import * as S from '@maou/bench-domain';
import {
  DEFAULT_POLICY_TARGET_MODE,
  err,
  ok,
  POLICY_TARGET_MODES,
  type BenchmarkConfig,
  type PolicyTargetMode,
  type ComputeConfig,
  type Result,
  type Stage,
  type ValidationIssue,
} from '@maou/bench-domain';
import { parseArchitecture, parseDevice, parseOptimizer, parseScheduler } from './choices';
import { pickDataSource, type SourceDefaults } from './data-source-spec';
import { checkModelOptions } from './model-options';
import { checkAdaptiveBatchOptions } from './adaptive-batch-options';
import { checkNumbers } from './numeric-rules';
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

type Parsed<T> = { readonly value: T } | { readonly issue: ValidationIssue };

const take = <T>(p: Parsed<T>, issues: ValidationIssue[], fallback: T): T => {
  if ('issue' in p) {
    issues.push(p.issue);
    return fallback;
  }
  return p.value;
};

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
 * file or network is touched. Every issue names its flag.
 * @public
 */
export const toBenchmarkConfig = (
  raw: Raw,
  defaults: BenchmarkDefaults,
): Result<ValidatedBenchmarkConfig, ValidationIssue[]> => {
  const issues = checkNumbers(raw);
  if (
    raw.optimizerBeta1 !== undefined &&
    raw.optimizerBeta2 !== undefined &&
    raw.optimizerBeta2 <= raw.optimizerBeta1
  ) {
    issues.push({
      field: '--optimizer-beta2',
      message: `must be greater than --optimizer-beta1 (got ${raw.optimizerBeta1} and ${raw.optimizerBeta2})`,
    });
  }
  if (raw.inputCacheMode !== undefined && !['file', 'memory', 'mmap'].includes(raw.inputCacheMode)) {
    issues.push({ field: '--input-cache-mode', message: `must be file, memory or mmap, got '${raw.inputCacheMode}'` });
  }
  if (raw.policyTargetMode !== undefined && !POLICY_TARGET_MODES.includes(raw.policyTargetMode as PolicyTargetMode)) {
    issues.push({
      field: '--policy-target-mode',
      message: `must be ${POLICY_TARGET_MODES.join(', ')}, got '${raw.policyTargetMode}'`,
    });
  }
  // the trace is written by profiling only; maou has no such flag, so there is nothing to stay compatible with
  if (raw.tracePath !== undefined && !raw.enableProfiling)
    issues.push({
      field: '--trace-path',
      message: 'needs --enable-profiling: the Chrome trace is written only by a profiled run',
    });
  const stage = (issues.some((i) => i.field === '--stage') ? S.STAGE.default : (raw.stage ?? S.STAGE.default)) as Stage;
  const preset = take(
    parseArchitecture(raw.modelArchitecture ?? S.MODEL_ARCHITECTURE.default),
    issues,
    S.MODEL_ARCHITECTURE.default,
  );
  const optimizer = take(parseOptimizer(raw.optimizer ?? S.OPTIMIZER.default), issues, S.OPTIMIZER.default);
  const mainScheduler = take(
    parseScheduler('--lr-scheduler', raw.lrScheduler ?? S.LR_SCHEDULER.default),
    issues,
    'none',
  );
  const stage12Scheduler =
    raw.stage12LrScheduler === undefined
      ? mainScheduler
      : take(parseScheduler('--stage12-lr-scheduler', raw.stage12LrScheduler), issues, 'none');
  const device = take<Pick<ComputeConfig, 'backend' | 'deviceIndex'>>(parseDevice(raw.gpu, defaults.backends), issues, {
    backend: 'auto',
    deviceIndex: 0,
  });
  const f16 = defaults.backends.filter((b) => b.mixedPrecision).map((b) => b.name);
  if (raw.mixedPrecision && !candidateBackends(device.backend, defaults.backends).every((b) => b.mixedPrecision))
    issues.push({
      field: '--mixed-precision',
      message: `needs --gpu ${f16.join(' or ') || '(no registered backend has it)'} (the backends with f16 activations; got ${raw.gpu === undefined ? 'no --gpu' : `--gpu ${raw.gpu}`}); maou's AMP is CUDA-only too`,
    });
  const modelChecks = checkModelOptions(raw, preset, stage);
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

  // maou HEAD trains Stage 1 on every row (no validation split) and Stage 2 too unless --stage2-test-ratio is given.
  const testRatio =
    stage === 1
      ? 0
      : stage === 2
        ? (raw.stage2TestRatio ?? S.STAGE2_TEST_RATIO.default)
        : (raw.testRatio ?? S.TEST_RATIO.default);
  const config: BenchmarkConfig = {
    stage,
    source: source.spec,
    loader: {
      batchSize: defaults.batchSize,
      workers: defaults.workers,
      prefetchFactor: raw.prefetchFactor ?? S.PREFETCH_FACTOR.default,
      pinMemory: raw.pinMemory ?? false,
      persistentWorkers: true,
      streaming: source.spec.streamable && stage !== 1 && (raw.streaming ?? true),
      shuffle: true,
      testRatio,
      cacheMode: raw.inputCacheMode === 'memory' ? 'memory' : 'file',
      devicePrefetch: raw.devicePrefetch ?? S.DEVICE_PREFETCH.default,
      seed,
      // Stages 1 and 2 have no policy target; maou ignores the flag there too.
      ...(stage === 3
        ? { policyTargetMode: (raw.policyTargetMode as PolicyTargetMode | undefined) ?? DEFAULT_POLICY_TARGET_MODE }
        : {}),
    },
    training: {
      preset,
      optimizer,
      learningRate: raw.learningRatio ?? S.LEARNING_RATE.default,
      momentum: raw.momentum ?? S.MOMENTUM.default,
      beta1: raw.optimizerBeta1 ?? S.OPTIMIZER_BETA1.default,
      beta2: raw.optimizerBeta2 ?? S.OPTIMIZER_BETA2.default,
      eps: raw.optimizerEps ?? S.OPTIMIZER_EPS.default,
      weightDecay: raw.weightDecay ?? S.WEIGHT_DECAY.default,
      lrScheduler: stage === 3 ? mainScheduler : stage12Scheduler,
      policyLossRatio: raw.policyLossRatio ?? S.POLICY_LOSS_RATIO.default,
      // as given at every stage, as maou echoes it; the Stage 1/2 objectives have no value head and never read it
      valueLossRatio: raw.valueLossRatio ?? S.VALUE_LOSS_RATIO.default,
      // maou clips the global L2 norm at 1.0 on every optimiser step, with no flag to turn it off
      gradientClip: raw.gradientClip ?? S.GRADIENT_CLIP.default,
      // maou starts an adaptive run at its min steps, whatever --gradient-accumulation-steps says
      gradientAccumulationSteps:
        adaptiveChecks.settings?.minSteps ?? raw.gradientAccumulationSteps ?? S.GRADIENT_ACCUMULATION_STEPS.default,
      ...(adaptiveChecks.settings ? { adaptiveBatch: adaptiveChecks.settings } : {}),
      detectAnomaly: raw.detectAnomaly ?? false,
      stage1PosWeight: raw.stage1PosWeight ?? S.STAGE1_POS_WEIGHT.default,
      stage2PosWeight: raw.stage2PosWeight ?? S.STAGE2_POS_WEIGHT.default,
      stage2GammaPos: raw.stage2GammaPos ?? S.STAGE2_GAMMA_POS.default,
      stage2GammaNeg: raw.stage2GammaNeg ?? S.STAGE2_GAMMA_NEG.default,
      stage2Clip: raw.stage2Clip ?? S.STAGE2_CLIP.default,
      stage2HiddenDim: raw.stage2HiddenDim ?? S.STAGE2_HIDDEN_DIM.default,
      stage2HeadDropout: raw.stage2HeadDropout ?? S.STAGE2_HEAD_DROPOUT.default,
      mixedPrecision: raw.mixedPrecision ?? false,
      ...modelChecks.fields,
    },
    compute: {
      ...device,
      threads: defaults.threads ?? 'auto',
      ...(raw.mixedPrecision ? { mixedPrecision: true } : {}),
    },
    warmupBatches: raw.warmupBatches ?? S.WARMUP_BATCHES.default,
    maxBatches: raw.fullEpoch ? null : (raw.maxBatches ?? S.MAX_BATCHES.default),
    ...(raw.fullEpoch
      ? {}
      : {
          stopping: {
            targetPrecision: raw.targetPrecision ?? S.TARGET_PRECISION.default,
            timeBudgetMs: (raw.timeBudget ?? S.TIME_BUDGET.default) * 1000,
            capGiven: raw.maxBatches !== undefined,
          },
        }),
    runValidation: raw.runValidation ?? false,
    sampleRatio: raw.sampleRatio ?? null,
    enableProfiling: raw.enableProfiling ?? false,
    enableResourceMonitoring: raw.enableResourceMonitoring ?? false,
    compilation: raw.compilation ?? false,
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
