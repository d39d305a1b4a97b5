import { PHASES, type BatchTiming } from '../timing/phases';

/** A Chrome trace event ("X" = complete event), times in microseconds. @public */
export interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: 'X' | 'M';
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** Kernels one phase of one batch ran, in order, with their device times. @public */
export interface PhaseKernels {
  readonly batch: number;
  readonly phase: string;
  readonly kernels: readonly { readonly name: string; readonly ms: number }[];
  /** live tensors when the phase ended */
  readonly liveTensors?: number;
}

/**
 * Builds a trace (chrome://tracing, Perfetto) of the batches: one track of batches, one of phases laid end to end
 * in their order, and, for profiled batches, one of kernels placed one after another inside their phase.
 * @public
 */
export const buildChromeTrace = (
  batches: readonly BatchTiming[],
  kernels: readonly PhaseKernels[] = [],
): { traceEvents: TraceEvent[]; displayTimeUnit: 'ms' } => {
  const us = (ms: number): number => Math.round(ms * 1000);
  const events: TraceEvent[] = [
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 1, tid: 1, args: { name: 'batches' } },
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 1, tid: 2, args: { name: 'phases' } },
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 1, tid: 3, args: { name: 'kernels' } },
  ];
  for (const b of batches) {
    events.push({
      name: `batch ${b.index}${b.warmup ? ' (warm-up)' : ''}`,
      cat: 'batch',
      ph: 'X',
      ts: us(b.startMs),
      dur: us(b.wallMs),
      pid: 1,
      tid: 1,
      args: { samples: b.samples, loss: b.loss },
    });
    let t = b.startMs;
    for (const phase of PHASES) {
      const ms = b.phases[phase];
      if (ms > 0)
        events.push({
          name: phase,
          cat: 'phase',
          ph: 'X',
          ts: us(t),
          dur: us(ms),
          pid: 1,
          tid: 2,
          args: { batch: b.index },
        });
      const group = kernels.find((k) => k.batch === b.index && k.phase === phase);
      let kt = t;
      for (const k of group?.kernels ?? []) {
        events.push({
          name: k.name,
          cat: 'kernel',
          ph: 'X',
          ts: us(kt),
          dur: us(k.ms),
          pid: 1,
          tid: 3,
          args: { batch: b.index, phase },
        });
        kt += k.ms;
      }
      t += ms;
    }
  }
  return { traceEvents: events, displayTimeUnit: 'ms' };
};
