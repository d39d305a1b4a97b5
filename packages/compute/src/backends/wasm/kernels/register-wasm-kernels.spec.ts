import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { fastWasmBackend, relErr } from '@maou/bench-testkit/compute';
import { installWasmKernels } from './register-wasm-kernels';

// Each fast wasm kernel against the stock cpu kernel on random inputs, for the network's shapes:
// 1×1 and 3×3 convolutions, stride 1 and 2, on 9×9 / 5×5 / 3×3 boards.
const rand = (shape: number[], seed: number) => tf.randomUniform(shape, -1, 1, 'float32', seed);

async function onBoth(run: () => tf.Tensor): Promise<[Float32Array, Float32Array]> {
  await tf.setBackend('cpu');
  const ref = run();
  const a = (await ref.data()) as Float32Array;
  ref.dispose();
  await tf.setBackend('wasm');
  const got = run();
  const b = (await got.data()) as Float32Array;
  got.dispose();
  return [a, b];
}

const cases: Array<[string, number, number, number, number, number, 'same' | 'valid']> = [
  // name, size, cin, cout, kernel, stride, pad
  ['1×1 s1', 9, 6, 10, 1, 1, 'valid'],
  ['1×1 s2', 9, 8, 12, 1, 2, 'valid'],
  ['3×3 s1', 9, 5, 7, 3, 1, 'same'],
  ['3×3 s2 9→5', 9, 6, 6, 3, 2, 'same'],
  ['3×3 s2 5→3', 5, 4, 4, 3, 2, 'same'],
  ['3×3 s2 3→2', 3, 4, 5, 3, 2, 'same'],
];

describe('wasm fast gradient kernels', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it.each(cases)(
    'Conv2DBackpropFilter and Conv2DBackpropInput %s match cpu',
    async (_n, size, cin, cout, k, stride, pad) => {
      const out = pad === 'same' ? Math.ceil(size / stride) : Math.ceil((size - k + 1) / stride);
      const attrs = { strides: stride, pad, dataFormat: 'NHWC', dilations: 1 };
      const filterGrad = () =>
        tf.tidy(
          () =>
            tf
              .engine()
              .runKernel(
                'Conv2DBackpropFilter',
                { x: rand([3, size, size, cin], 1), dy: rand([3, out, out, cout], 2) },
                { ...attrs, filterShape: [k, k, cin, cout] },
              ) as tf.Tensor,
        );
      const inputGrad = () =>
        tf.tidy(
          () =>
            tf
              .engine()
              .runKernel(
                'Conv2DBackpropInput',
                { dy: rand([3, out, out, cout], 3), filter: rand([k, k, cin, cout], 4) },
                { ...attrs, inputShape: [3, size, size, cin] },
              ) as tf.Tensor,
        );
      for (const run of [filterGrad, inputGrad]) {
        const [ref, got] = await onBoth(run);
        expect(got.length).toBe(ref.length);
        expect(relErr(ref, got)).toBeLessThan(1e-5);
      }
    },
  );

  it.each([
    [false, true],
    [true, false],
    [true, true],
  ])('BatchMatMul transposeA=%s transposeB=%s matches cpu', async (ta, tb) => {
    const a = ta ? [1, 7, 5] : [1, 5, 7];
    const b = tb ? [1, 3, 7] : [1, 7, 3];
    const [ref, got] = await onBoth(() => tf.tidy(() => tf.matMul(rand(a, 5), rand(b, 6), ta, tb)));
    expect(relErr(ref, got)).toBeLessThan(1e-5);
  });

  it('row gather and UnsortedSegmentSum (the embedding and its gradient) match cpu', async () => {
    const ids = () => tf.tensor1d([3, 0, 7, 3, 3, 9, 1], 'int32');
    const [g1, g2] = await onBoth(() => tf.tidy(() => tf.gather(rand([10, 6], 9), ids())));
    expect(relErr(g1, g2)).toBe(0);
    const [s1, s2] = await onBoth(() => tf.tidy(() => tf.unsortedSegmentSum(rand([7, 6], 10), ids(), 10)));
    expect(relErr(s1, s2)).toBeLessThan(1e-6);
  });

  it('leaves no backend data behind', async () => {
    await tf.setBackend('wasm');
    const x = rand([2, 9, 9, 4], 7);
    const dy = rand([2, 5, 5, 6], 8);
    const run = () =>
      tf
        .engine()
        .runKernel(
          'Conv2DBackpropFilter',
          { x, dy },
          { strides: 2, pad: 'same', dataFormat: 'NHWC', dilations: 1, filterShape: [3, 3, 4, 6] },
        ) as tf.Tensor;
    run().dispose(); // the first call makes the kernel's cached one-hot filter
    const before = tf.engine().backend.numDataIds();
    const g = run();
    expect(tf.engine().backend.numDataIds()).toBe(before + 1);
    g.dispose();
    expect(tf.engine().backend.numDataIds()).toBe(before);
    expect((await x.data()).length).toBe(2 * 81 * 4); // the input survived
    tf.dispose([x, dy]);
  });
});

describe('wasm minimal shim (the stock baseline of bench:engine)', () => {
  it.each(cases)('Conv2DBackpropFilter %s matches cpu', async (_n, size, cin, cout, k, stride, pad) => {
    const restore = installWasmKernels('shim-only');
    const out = pad === 'same' ? Math.ceil(size / stride) : Math.ceil((size - k + 1) / stride);
    const [ref, got] = await onBoth(() =>
      tf.tidy(
        () =>
          tf
            .engine()
            .runKernel(
              'Conv2DBackpropFilter',
              { x: rand([2, size, size, cin], 1), dy: rand([2, out, out, cout], 2) },
              { strides: stride, pad, dataFormat: 'NHWC', dilations: 1, filterShape: [k, k, cin, cout] },
            ) as tf.Tensor,
      ),
    );
    restore();
    expect(relErr(ref, got)).toBeLessThan(1e-5);
  });
});
