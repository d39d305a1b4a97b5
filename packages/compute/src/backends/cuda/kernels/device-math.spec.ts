import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { createObjective, dropoutKeep, dropoutMask, lowbias32, TapeRecorder } from '@maou/bench-engine';
import { type Stage } from '@maou/bench-domain';
import {
  DROPOUT_MASK_CASES,
  LOSS_LOGITS,
  LOSS_TARGETS,
  MULTI_LABEL_CASES,
  TRAINING,
} from '@maou/bench-testkit/compute';
import { DEVICE_MATH } from './device-math.cu';

// The kernels' per-element math (DEVICE_MATH, the same text NVRTC compiles) built by g++ as host code and run on
// shared test vectors against the engine's own functions: the dropout hash and keep test, and the losses' element
// terms with their gradients. A one-command-a-line driver reads the cases on stdin.
const DRIVER = String.raw`
#include <cmath>
#include <cstdio>
#include <cstring>
using namespace std;
${DEVICE_MATH}
int main() {
  char op[4];
  while (scanf("%3s", op) == 1) {
    if (!strcmp(op, "h")) { unsigned int x; scanf("%u", &x); printf("%u\n", lowbias32(x)); }
    else if (!strcmp(op, "k")) {
      unsigned int n, key, threshold; scanf("%u %u %u", &n, &key, &threshold);
      for (unsigned int i = 0; i < n; i++) putchar(dropout_keeps(i, key, threshold) ? '1' : '0');
      putchar('\n');
    } else if (!strcmp(op, "b")) {
      float z, t, w, l, g; scanf("%f %f %f", &z, &t, &w); bce_element(z, t, w, &l, &g); printf("%.9g %.9g\n", l, g);
    } else if (!strcmp(op, "a")) {
      float z, t, gp, gn, clip, l, g; scanf("%f %f %f %f %f", &z, &t, &gp, &gn, &clip);
      asymmetric_element(z, t, gp, gn, clip, &l, &g); printf("%.9g %.9g\n", l, g);
    } else if (!strcmp(op, "s")) { float x; scanf("%f", &x); printf("%.9g %.9g\n", softplus(x), sigmoid(x)); }
  }
}
`;

const compiler = spawnSync('g++', ['--version']).status === 0;
let driver = '';

/** Runs the driver on `lines` (one command each) and returns its output lines. */
const run = (lines: readonly string[]): string[] =>
  execFileSync(driver, { input: `${lines.join('\n')}\n`, encoding: 'utf8' })
    .trim()
    .split('\n');

const pairs = LOSS_LOGITS.flatMap((z) => LOSS_TARGETS.map((t) => [z, t] as const));

/** The engine's loss (its stage objective) and its gradient with respect to the logits, on the cpu backend. */
function engineLoss(
  stage: Stage,
  cfg: typeof TRAINING,
  z: number[],
  t: number[],
): { loss: number; grad: Float32Array } {
  const objective = createObjective(stage, cfg);
  const logits = tf.tensor2d(z, [1, z.length]);
  const target = tf.tensor2d(t, [1, t.length]);
  const lossOf = (x: tf.Tensor) =>
    stage === 3
      ? objective.loss(
          { logits: tf.zeros([z.length, 2]) as tf.Tensor2D, value: tf.reshape(x, [z.length, 1]) as tf.Tensor2D },
          {
            size: z.length,
            inputs: undefined as never,
            targets: [tf.fill([z.length, 2], 0.5) as tf.Tensor2D, tf.reshape(target, [z.length, 1]) as tf.Tensor2D],
            negEntropySum: 0,
          },
        )
      : objective.loss(
          { logits: x as tf.Tensor2D, value: null },
          {
            size: 1,
            inputs: undefined as never,
            targets: [target],
            negEntropySum: 0,
          },
        );
  const { value, grad } = tf.valueAndGrad(lossOf)(logits);
  return { loss: value.dataSync()[0]!, grad: grad.dataSync() as Float32Array };
}

/**
 * Indices where `actual` is off `expected` by more than 1e-5 of the element plus 1e-6 of the largest element (f32
 * rounding; the engine's tfjs softplus switches formula at ±13.9, which moves values far below the largest).
 */
const offAt = (actual: readonly number[], expected: ArrayLike<number>): number[] => {
  const scale = Math.max(...Array.from(expected, Math.abs));
  return actual.flatMap((a, i) =>
    Math.abs(a - expected[i]!) > 1e-5 * Math.abs(expected[i]!) + 1e-6 * scale ? [i] : [],
  );
};

describe("the cuda kernels' element math, built for the CPU, against the engine", () => {
  const maybe = compiler ? it : it.skip;
  if (!compiler) it('is skipped', () => console.warn('device-math specs skipped: no g++ (scripts/setup-system.sh)'));

  beforeAll(async () => {
    await tf.setBackend('cpu');
    new TapeRecorder(); // registers the engine's gradients, which tf.valueAndGrad below uses
    if (!compiler) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-device-math-'));
    fs.writeFileSync(path.join(dir, 'driver.cc'), DRIVER);
    driver = path.join(dir, 'driver');
    execFileSync('g++', ['-O1', '-ffp-contract=off', '-o', driver, path.join(dir, 'driver.cc')]);
  });

  maybe("lowbias32 is the engine's, published values included", () => {
    const values = [0, 1, 2, 0xdeadbeef, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];
    expect(run(values.map((v) => `h ${v}`)).map(Number)).toEqual(values.map(lowbias32));
  });

  maybe.each(DROPOUT_MASK_CASES)(
    "%j at rate %d, seed %d: the keep test gives the engine's host mask",
    (shape, rate, seed) => {
      const size = shape.reduce((a, b) => a * b, 1);
      const { key, threshold } = dropoutKeep(rate, seed);
      const [kept] = run([`k ${size} ${key} ${threshold}`]);
      expect(kept).toBe(Array.from(dropoutMask(size, rate, seed), (m) => (m !== 0 ? '1' : '0')).join(''));
    },
  );

  maybe.each(MULTI_LABEL_CASES)("multi-label loss %j: element losses and gradients give the engine's", (o) => {
    const stage = o.gammaPos === 0 && o.gammaNeg === 0 && o.clip === 0 ? 1 : 2;
    const cfg = {
      ...TRAINING,
      stage1PosWeight: o.posWeight,
      stage2GammaPos: o.gammaPos,
      stage2GammaNeg: o.gammaNeg,
      stage2Clip: o.clip,
    };
    const z = pairs.map((p) => p[0]);
    const t = pairs.map((p) => p[1]);
    const out = run(
      pairs.map(([zi, ti]) =>
        stage === 1 ? `b ${zi} ${ti} ${o.posWeight}` : `a ${zi} ${ti} ${o.gammaPos} ${o.gammaNeg} ${o.clip}`,
      ),
    ).map((line) => line.split(' ').map(Number) as [number, number]);
    const engine = engineLoss(stage, cfg, z, t);
    const count = pairs.length;
    expect(offAt([out.reduce((s, [l]) => s + l, 0) / count], [engine.loss])).toEqual([]);
    expect(
      offAt(
        out.map(([, g]) => g / count),
        engine.grad,
      ),
    ).toEqual([]);
  });

  maybe("Stage 3's value term: softplus(v) − v·y and σ(v) − y give the engine's BCE and its gradient", () => {
    const v = pairs.map((p) => p[0]);
    const y = pairs.map((p) => p[1]);
    const out = run(v.map((x) => `s ${x}`)).map((line) => line.split(' ').map(Number) as [number, number]);
    const engine = engineLoss(3, { ...TRAINING, policyLossRatio: 0, valueLossRatio: 1 }, v, y);
    const n = pairs.length;
    expect(offAt([out.reduce((s, [sp], i) => s + sp - v[i]! * y[i]!, 0) / n], [engine.loss])).toEqual([]);
    expect(
      offAt(
        out.map(([, sg], i) => (sg - y[i]!) / n),
        engine.grad,
      ),
    ).toEqual([]);
  });
});
