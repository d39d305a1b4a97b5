import { constF, constI, type Dispatch, elementwise, NON_FINITE, rowKernel } from './wgsl';
import { NORM_PARTS } from './kernels';

// Dynamic loss scaling of the mixed-precision step, kept on the GPU so a step needs no read-back: the state buffer
// `scale` holds [loss scale, good steps in a row, skipped steps, applied optimiser steps]. The loss gradient is
// multiplied by the scale, so the f16 activation gradients keep their small values; the update divides it out,
// and skips the step when any gradient is inf or NaN (then the scale halves).

/** PyTorch GradScaler's defaults (maou uses them): initial scale 2^16, ×2 after 2,000 good steps, ×0.5 on overflow. @public */
export const LOSS_SCALING = { initialScale: 65536, growthInterval: 2000, growth: 2, backoff: 0.5 } as const;

/** Floats of the `scale` state buffer. @public */
export const SCALE_FLOATS = 4;

/** The loss gradients (dlogits, and dvalue for Stage 3) times the loss scale, in place. @public */
export function scaleLossGradients(batch: number, classes: number, withValue: boolean): Dispatch {
  return elementwise(
    'loss scale',
    [
      { name: 'scale', buffer: 'scale' },
      { name: 'dlogits', buffer: 'dlogits', write: true },
      ...(withValue ? [{ name: 'dvalue', buffer: 'dvalue', write: true }] : []),
    ],
    batch * classes,
    constI('NB', batch),
    `    let s = scale[0]; dlogits[i] = dlogits[i] * s;${withValue ? ' if (i < NB) { dvalue[i] = dvalue[i] * s; }' : ''}`,
  );
}

/** After the update: halve the scale and count a skipped step on overflow, else count a good step (×2 every N). @public */
export function updateLossScale(o: { growthInterval?: number } = {}): Dispatch {
  return rowKernel(
    'loss scale update',
    [
      { name: 'part', buffer: 'normParts' },
      { name: 'scale', buffer: 'scale', write: true },
    ],
    1,
    [
      constI('NP', NORM_PARTS),
      constF('INTERVAL', o.growthInterval ?? LOSS_SCALING.growthInterval),
      constF('GROWTH', LOSS_SCALING.growth),
      constF('BACKOFF', LOSS_SCALING.backoff),
    ].join('\n'),
    `
  var s = 0.0;
  for (var k = i32(t); k < NP; k += 256) { s += part[k]; }
  s = wsum(s, t);
  if (t == 0u) {
    if (non_finite(s)) { scale[0] = scale[0] * BACKOFF; scale[1] = 0.0; scale[2] = scale[2] + 1.0; }
    else {
      scale[3] = scale[3] + 1.0;
      let good = scale[1] + 1.0;
      if (good >= INTERVAL) { scale[0] = scale[0] * GROWTH; scale[1] = 0.0; } else { scale[1] = good; }
    }
  }`,
    NON_FINITE,
  );
}
