import type { AdaptiveBatchReport } from '@maou/bench-domain';

const noise = (x: number | null): string => (x === null ? '–' : x.toFixed(1));

/** The "Adaptive batch" block of a `--adaptive-batch` run: the steps over time and the measured noise scale. */
export const adaptiveBatchLines = (a: AdaptiveBatchReport | undefined): string[] => {
  if (!a) return [];
  const s = a.settings;
  const measured = a.cycles.filter((c) => c.measured);
  const readings = measured.filter((c) => c.noise_scale !== null);
  return [
    '',
    `  Adaptive batch (steps ${s.min_steps}–${s.max_steps}, adjust every ${s.interval} optimiser steps, measure every ${s.measurement_interval}, smoothing ${s.smoothing}, physical batch ${a.physical_batch_size})`,
    `  - steps over time: ${a.steps_chosen.map((c) => `${c.accumulation_steps} from batch ${c.from_batch}`).join(', ')}`,
    `  - ${a.optimizer_steps} optimiser steps; noise scale measured ${measured.length}×, kept ${readings.length}× (${readings.map((c) => noise(c.noise_scale)).join(', ') || 'none'}); smoothed ${noise(a.smoothed_noise_scale)}`,
    ...(a.epoch
      ? [
          `  - epoch: ${a.epoch.predicted_remaining_steps} optimiser steps predicted for the ${a.epoch.remaining_batches} remaining batches at ${a.final_accumulation_steps} steps, ${a.epoch.correction_ms >= 0 ? '+' : ''}${a.epoch.correction_ms.toFixed(1)} ms on the prediction`,
        ]
      : []),
    ...a.notes.map((n) => `  - note: ${n}`),
  ];
};
