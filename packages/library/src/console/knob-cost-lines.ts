import type { KnobCostReport } from '@maou/bench-domain';
import { formatMs as ms } from './console-text';

const change = (x: number | null): string =>
  x === null ? '–' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;
const mib = (bytes: number | null): string => (bytes === null ? '–' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

/** The "Knob cost" block: the run's checkpointing / freezing knobs against the same steps without them. */
export const knobCostLines = (k: KnobCostReport | undefined): string[] => {
  if (!k) return [];
  const a = k.with;
  const b = k.without;
  return [
    '',
    `  Knob cost (${k.knobs.join(' ')} against none)`,
    `  - step:     ${ms(a.step_ms)} against ${ms(b.step_ms)} (${change(k.step_change)})`,
    `  - backward: ${ms(a.backward_ms)} against ${ms(b.backward_ms)} (${change(k.backward_change)})`,
    `  - peak live tensors: ${mib(a.peak_tensor_bytes)} against ${mib(b.peak_tensor_bytes)} (${change(k.peak_tensor_change)})`,
    `  - trainable parameters: ${a.trainable_parameters.toLocaleString('en')} of ${b.trainable_parameters.toLocaleString('en')}`,
    `  - how: ${k.method}`,
  ];
};
