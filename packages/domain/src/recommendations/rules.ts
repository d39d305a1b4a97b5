import type { Recommendation } from '../report/benchmark-report';
import { PREFETCH_FACTOR } from '../config/loader-settings';
import { THRESHOLDS as T, type RecommendationContext } from './recommendation-context';

/** A rule: when it fires it returns the recommendation, with the figure that triggered it. @public */
export interface RecommendationRule {
  readonly id: string;
  evaluate(ctx: RecommendationContext): Omit<Recommendation, 'rule'> | null;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const rule = (id: string, evaluate: RecommendationRule['evaluate']): RecommendationRule => ({ id, evaluate });

/** The rule table, evaluated in order. @public */
export const RECOMMENDATION_RULES: readonly RecommendationRule[] = [
  rule('input-bound', ({ metrics: m, settings: s }) => {
    const share = m.phase_share.dataWait;
    if (share <= T.inputBound) return null;
    const workers = Math.max(1, Math.min(s.cores, s.workers * 2 || 1));
    return {
      severity: 'warning',
      message: `Input-bound: the model waits for data ${pct(share)} of the time. Add loader workers or prefetch.`,
      flag: '--dataloader-workers',
      value: String(workers),
      evidence: `data_wait share ${share.toFixed(3)} > ${T.inputBound}`,
    };
  }),
  rule('compute-bound', ({ metrics: m, settings: s }) => {
    const share = m.phase_share.dataWait;
    if (share >= T.computeBound || s.workers <= 1) return null;
    return {
      severity: 'info',
      message: `Compute-bound: data wait is only ${pct(share)}; fewer loader workers would free CPU for compute.`,
      flag: '--dataloader-workers',
      value: String(Math.max(1, Math.floor(s.workers / 2))),
      evidence: `data_wait share ${share.toFixed(3)} < ${T.computeBound} with ${s.workers} workers`,
    };
  }),
  rule('host-to-device', ({ metrics: m, settings: s }) => {
    const share = m.phase_share.hostToDevice;
    if (share <= T.hostToDevice || s.pinMemory) return null;
    return {
      severity: 'suggestion',
      message: `Host-to-device copies take ${pct(share)}; reuse pinned transfer buffers.`,
      flag: '--pin-memory',
      value: 'true',
      evidence: `host_to_device share ${share.toFixed(3)} > ${T.hostToDevice}`,
    };
  }),
  rule('variability', ({ metrics: m }) => {
    const cv = m.batch_ms.stdev / m.batch_ms.mean;
    if (!(cv > T.variability)) return null;
    return {
      severity: 'warning',
      message: `Batch time varies a lot (CV ${cv.toFixed(2)}): I/O stalls, GC or a noisy machine.`,
      flag: null,
      value: null,
      evidence: `batch_ms stdev/mean ${cv.toFixed(3)} > ${T.variability}`,
    };
  }),
  // The epoch interval's own half-width, the one the summary prints (the batch-time mean's was a second, different ±).
  rule('more-batches', ({ metrics: m, epoch: e }) => {
    const [lo, hi] = e.predicted_ms_ci95;
    const half = e.half_width_fraction ?? (hi - lo) / 2 / e.predicted_ms;
    if (!(half > T.ciHalfWidth)) return null;
    // An open interval (too few steady batches to bound it) gives no count to ask for: say so, name no value.
    if (!Number.isFinite(half))
      return {
        severity: 'suggestion',
        message: `The estimate has no upper bound yet (its interval is open); measure more batches (a larger --max-batches or --time-budget).`,
        flag: null,
        value: null,
        evidence: `epoch estimate's 95 % interval is open above (${m.measured_batches} steady batches)`,
      };
    const needed = Math.ceil(m.measured_batches * (half / T.ciHalfWidth) ** 2);
    return {
      severity: 'suggestion',
      message: `The estimate is loose (±${pct(half)}); measure more batches for a ±${pct(T.ciHalfWidth)} interval.`,
      flag: '--max-batches',
      value: String(m.steady_state_start + needed),
      evidence: `epoch estimate's 95 % interval half-width ${half.toFixed(3)} of the prediction > ${T.ciHalfWidth}`,
    };
  }),
  // At each file boundary of a streaming epoch the consumer waits for its producer's read of the next file, less what
  // the batches ready cover: as many more batches ready as the wait lasts cover it. Session 13, row 24's files on the
  // 2-core VM, full epochs A/B/A/B: prefetch 7 took the waits away and the steps no longer (143.2 against 143.0 ms),
  // epoch 1.7 % shorter (ADR 0014).
  rule('file-boundaries', ({ metrics: m, epoch: e, settings: s }) => {
    const b = e.file_boundaries;
    if (!b || !(b.stall_ms > 0)) return null;
    const boundaries = Math.max(0, b.reads_per_epoch - 1);
    const share = (boundaries * b.stall_ms) / e.predicted_ms;
    if (!(share > T.fileBoundaries)) return null;
    const waits = `${boundaries} file boundaries cost ${pct(share)} of the epoch: ~${b.stall_ms.toFixed(0)} ms each, waiting for the next file's read`;
    const evidence = `${boundaries} × ${b.stall_ms.toFixed(0)} ms (${b.source}) = ${share.toFixed(3)} of the epoch > ${T.fileBoundaries}`;
    if (!b.beside_step)
      return {
        severity: 'suggestion',
        message: `${waits} on the main thread, which stops the step. A loader worker reads beside it.`,
        flag: '--dataloader-workers',
        value: '1',
        evidence,
      };
    const more = Math.ceil(b.stall_ms / m.batch_ms.mean);
    const factor = Math.min(PREFETCH_FACTOR.bounds.max, s.prefetchFactor + Math.ceil(more / Math.max(1, s.workers)));
    return {
      severity: 'suggestion',
      message: `${waits}. ${more} more batches ready ahead would cover it.`,
      flag: PREFETCH_FACTOR.flag,
      value: String(factor),
      evidence,
    };
  }),
  rule('late-steady-state', ({ metrics: m, settings: s }) => {
    if (m.steady_state_start <= s.warmupBatches) return null;
    return {
      severity: 'info',
      message: `Batches were still speeding up after the requested warm-up; steady state began at batch ${m.steady_state_start}.`,
      flag: '--warmup-batches',
      value: String(m.steady_state_start),
      evidence: `detected steady start ${m.steady_state_start} > warmup ${s.warmupBatches}`,
    };
  }),
  rule('tensor-leak', ({ metrics: m }) => {
    const leak = m.tensors_per_batch.leaked_per_batch;
    if (!(leak > 0)) return null;
    return {
      severity: 'warning',
      message: `Live tensors grow by ${leak.toFixed(1)} per batch: memory will run out on long runs.`,
      flag: null,
      value: null,
      evidence: `tensors ${m.tensors_per_batch.first} → ${m.tensors_per_batch.last}`,
    };
  }),
  rule('fallback-backend', ({ settings: s }) => {
    if (!s.fallback) return null;
    return {
      severity: 'warning',
      message: `The ${s.backend} backend is a correctness fallback, 160–1,500× slower to train than the default: leave --gpu out for maou's CPU device.`,
      flag: '--gpu',
      value: null,
      evidence: `backend ${s.backend} (its plug-in marks it a fallback)`,
    };
  }),
  rule('wasm-heap', ({ settings: s }) => {
    if (s.heapLimitBytes === null || s.batchSize <= T.wasmBatch) return null;
    return {
      severity: 'warning',
      message: `Batches above ${T.wasmBatch} may not fit the 4 GiB wasm heap; if the run aborts, lower the batch size.`,
      flag: '--batch-size',
      value: String(T.wasmBatch),
      evidence: `batch ${s.batchSize} > ${T.wasmBatch} on wasm`,
    };
  }),
];

/** Runs every rule and returns those that fired, in table order. @public */
export const recommend = (
  ctx: RecommendationContext,
  rules: readonly RecommendationRule[] = RECOMMENDATION_RULES,
): Recommendation[] =>
  rules.flatMap((r) => {
    const hit = r.evaluate(ctx);
    return hit ? [{ rule: r.id, ...hit }] : [];
  });
