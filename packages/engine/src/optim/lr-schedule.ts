import { type LrSchedulerName } from '@maou/bench-domain';

/** Learning rate as a function of the optimiser step (0-based). @public */
export type LrSchedule = (step: number) => number;

/**
 * maou's schedules (benchmark spec §7.7), stepped after every optimiser step (maou built its scheduler in
 * the benchmark and never stepped it; this one is). `step` has no maou definition: here it multiplies
 * the rate by 0.1 after each third of the run (torch StepLR, gamma 0.1).
 * @public
 */
export function createLrSchedule(
  name: LrSchedulerName,
  base: number,
  totalSteps: number,
  stepsPerEpoch = totalSteps,
): LrSchedule {
  const total = Math.max(1, totalSteps);
  switch (name) {
    case 'warmup_cosine_decay': {
      const warmup = Math.min(total, Math.max(stepsPerEpoch, Math.ceil(0.1 * total)));
      return (s) => {
        if (warmup > 0 && s < warmup) return (base * (s + 1)) / warmup;
        const p = Math.min(Math.max(s - warmup, 0) / Math.max(total - warmup, 1), 1);
        return base * 0.5 * (1 + Math.cos(Math.PI * p));
      };
    }
    case 'cosine_annealing':
      return (s) => (base * (1 + Math.cos((Math.PI * Math.min(s, total)) / total))) / 2;
    case 'step': {
      const size = Math.max(1, Math.floor(total / 3));
      return (s) => base * 0.1 ** Math.floor(s / size);
    }
    case 'none':
      return () => base;
  }
}
