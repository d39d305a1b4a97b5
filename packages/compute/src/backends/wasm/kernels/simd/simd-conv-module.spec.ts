import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { fastWasmBackend, relErr } from '@maou/bench-testkit/compute';
import { simdBatchMatMul, simdConv2d, simdConv2dBackpropFilter, simdConv2dBackpropInput } from './simd-conv-kernels';
import { tfjsWasmHeap, type WasmBackendHeap } from './wasm-heap';
import { type CpuKernelChoice, NATIVE_ISAS, selectCpuKernels, useCpuKernels } from '../../native/native-kernels';

// The convolution kernels (WebAssembly SIMD, and the native addon's AVX-512 and AVX2 builds) against the cpu backend on random inputs, for every geometry of the network
// (1×1 and 3×3, stride 1 and 2, boards 9→5→3→2, 'same' and 'valid') and for channel counts they do not
// cover (the registered kernels must then fall back and still be right).
type Pad = 'same' | 'valid';
const rand = (shape: number[], seed: number) => tf.randomUniform(shape, -1, 1, 'float32', seed);

interface Case {
  size: number;
  cin: number;
  cout: number;
  k: number;
  stride: number;
  pad: Pad;
}
const outSize = (c: Case) =>
  c.pad === 'same' ? Math.ceil(c.size / c.stride) : Math.ceil((c.size - c.k + 1) / c.stride);
const attrs = (c: Case) => ({ strides: c.stride, pad: c.pad, dataFormat: 'NHWC', dilations: 1 });
const B = 3;

type Pass = 'forward' | 'input-gradient' | 'filter-gradient';
const PASSES: Pass[] = ['forward', 'input-gradient', 'filter-gradient'];

/** The pass's inputs (same seeds on every backend) and attributes. */
function pass(p: Pass, c: Case): { name: string; inputs: tf.NamedTensorMap; attrs: tf.NamedAttrMap } {
  const o = outSize(c);
  if (p === 'forward')
    return {
      name: 'Conv2D',
      inputs: { x: rand([B, c.size, c.size, c.cin], 1), filter: rand([c.k, c.k, c.cin, c.cout], 2) },
      attrs: attrs(c),
    };
  if (p === 'input-gradient')
    return {
      name: 'Conv2DBackpropInput',
      inputs: { dy: rand([B, o, o, c.cout], 3), filter: rand([c.k, c.k, c.cin, c.cout], 4) },
      attrs: { ...attrs(c), inputShape: [B, c.size, c.size, c.cin] },
    };
  return {
    name: 'Conv2DBackpropFilter',
    inputs: { x: rand([B, c.size, c.size, c.cin], 5), dy: rand([B, o, o, c.cout], 6) },
    attrs: { ...attrs(c), filterShape: [c.k, c.k, c.cin, c.cout] },
  };
}

const SIMD = {
  forward: simdConv2d,
  'input-gradient': simdConv2dBackpropInput,
  'filter-gradient': simdConv2dBackpropFilter,
};

/** Runs the pass on the SIMD kernel directly (null when it does not cover the shape), on the active wasm backend. */
function direct(p: Pass, c: Case): Float32Array | null {
  const { inputs, attrs: a } = pass(p, c);
  const info = SIMD[p]({ inputs, attrs: a, backend: tf.backend() });
  tf.dispose(Object.values(inputs));
  if (!info) return null;
  const t = tf.engine().makeTensorFromTensorInfo(info);
  const values = t.dataSync() as Float32Array;
  t.dispose();
  return values;
}

async function onBackend(name: string, p: Pass, c: Case): Promise<Float32Array> {
  await tf.setBackend(name);
  return tf.tidy(() => {
    const { name: kernel, inputs, attrs: a } = pass(p, c);
    return (tf.engine().runKernel(kernel, inputs, a) as tf.Tensor).dataSync() as Float32Array;
  });
}

const c = (size: number, cin: number, cout: number, k: number, stride: number, pad: Pad): Case => ({
  size,
  cin,
  cout,
  k,
  stride,
  pad,
});
const NETWORK: Array<[string, Case]> = [
  ['1×1 s1 9×9', c(9, 16, 8, 1, 1, 'valid')],
  ['1×1 s1 2×2', c(2, 8, 24, 1, 1, 'valid')],
  ['1×1 s2 9→5', c(9, 8, 16, 1, 2, 'valid')],
  ['1×1 s2 5→3', c(5, 16, 8, 1, 2, 'valid')],
  ['1×1 s2 3→2', c(3, 8, 8, 1, 2, 'valid')],
  ['3×3 s1 same 9×9', c(9, 8, 8, 3, 1, 'same')],
  ['3×3 s1 same 3×3', c(3, 16, 16, 3, 1, 'same')],
  ['3×3 s2 same 9→5', c(9, 8, 16, 3, 2, 'same')],
  ['3×3 s2 same 5→3', c(5, 16, 8, 3, 2, 'same')],
  ['3×3 s2 same 3→2', c(3, 8, 8, 3, 2, 'same')],
  ['3×3 s1 valid 5→3', c(5, 8, 8, 3, 1, 'valid')],
  ['3×3 s2 valid 9→4', c(9, 16, 8, 3, 2, 'valid')],
  // Wider layers: several column panels and full row tiles, with 8-, 16- and 24-wide remainders of the native panels.
  ['3×3 s1 same 5×5, 64→96', c(5, 64, 96, 3, 1, 'same')],
  ['3×3 s2 same 5→3, 48→40', c(5, 48, 40, 3, 2, 'same')],
  ['1×1 s1 3×3, 144→56', c(3, 144, 56, 1, 1, 'valid')],
  ['1×1 s2 9→5, 24→48', c(9, 24, 48, 1, 2, 'valid')],
];

// Every kernel set this machine can run. The addon is built by `pnpm install` (packages/compute/scripts/build-native-kernels.cjs):
// a missing build fails the spec below rather than dropping the native sets silently.
const native = selectCpuKernels('auto');
const SETS: CpuKernelChoice[] = [
  'wasm',
  ...NATIVE_ISAS.filter((isa) => native.kind === 'native' && native.addon.supported(NATIVE_ISAS.indexOf(isa))),
];

it('the native kernels were built at install and load on this x86-64 machine', () => {
  expect(native.kind === 'native' ? native.isa : native.reason).toMatch(/^avx/);
});

describe.each(SETS)('convolution kernels on the wasm backend, %s', (set) => {
  const wasm = fastWasmBackend();
  beforeAll(async () => {
    await wasm.setUp();
    useCpuKernels(set);
  });
  afterAll(() => {
    useCpuKernels('auto');
    wasm.tearDown();
  });

  it.each(NETWORK)(
    '%s: forward, input and filter gradients match cpu, directly and as registered kernels',
    async (_n, shape) => {
      for (const p of PASSES) {
        const ref = await onBackend('cpu', p, shape);
        await tf.setBackend('wasm');
        const mine = direct(p, shape);
        expect(mine).not.toBeNull();
        expect(relErr(ref, mine!)).toBeLessThan(1e-5);
        expect(relErr(ref, await onBackend('wasm', p, shape))).toBeLessThan(1e-5);
      }
    },
  );

  it.each([
    ['forward, Co not a multiple of 8', 'forward', c(5, 8, 12, 3, 2, 'same')],
    ['input gradient, Ci not a multiple of 8', 'input-gradient', c(5, 12, 8, 3, 1, 'same')],
    ['filter gradient, Ci not a multiple of 4', 'filter-gradient', c(5, 6, 8, 3, 2, 'same')],
    ['filter gradient, Co not a multiple of 8', 'filter-gradient', c(9, 8, 20, 1, 2, 'valid')],
  ] as Array<[string, Pass, Case]>)('%s: not covered, the fallback matches cpu', async (_n, p, shape) => {
    const ref = await onBackend('cpu', p, shape);
    await tf.setBackend('wasm');
    expect(direct(p, shape)).toBeNull();
    expect(relErr(ref, await onBackend('wasm', p, shape))).toBeLessThan(1e-5);
  });

  it('covers odd channel counts where the tiles allow (forward Ci 5, input gradient Co 3)', async () => {
    for (const [p, shape] of [
      ['forward', c(5, 5, 8, 3, 1, 'same')],
      ['input-gradient', c(5, 8, 3, 3, 2, 'same')],
    ] as Array<[Pass, Case]>) {
      const ref = await onBackend('cpu', p, shape);
      await tf.setBackend('wasm');
      expect(relErr(ref, direct(p, shape)!)).toBeLessThan(1e-5);
    }
  });

  // M = 66 leaves a short last tile; M = 1 is the batch-statistics shape. N not a multiple of 8 (and, with A
  // transposed, M not of 4) runs on zero-padded copies; batches loop over the pairs, a batch of 1 broadcasts.
  // The 81-wide cases are the mixer's token MLP and the ViT's attention products (forward and both gradients).
  it.each([
    [[1], [1], 1, 256, 48, false, false, true],
    [[1], [1], 66, 128, 136, false, false, true],
    [[1], [1], 66, 128, 136, false, true, true],
    [[1], [1], 68, 128, 136, true, false, true],
    [[1], [1], 66, 128, 136, true, false, true],
    [[1], [1], 64, 128, 132, false, false, true],
    [[], [], 40, 128, 81, false, false, true],
    [[], [], 81, 40, 128, true, false, true],
    [[], [], 40, 81, 128, false, true, true],
    [[], [], 1, 7, 1, false, false, true],
    [[6], [6], 81, 16, 81, false, true, true],
    [[6], [6], 81, 81, 16, false, false, true],
    [[6], [6], 81, 81, 16, true, false, true],
    [[6], [6], 81, 16, 81, true, false, true],
    [[6], [6], 81, 16, 81, false, true, true],
    [[2, 3], [2, 3], 9, 5, 11, false, false, true],
    [[4], [1], 9, 12, 16, false, false, true],
    [[1], [4], 10, 12, 9, true, false, true],
    [[4], [], 9, 12, 16, false, true, true],
    [[2], [2], 8, 8, 8, true, true, false], // both transposed: stock
    [[2, 1], [1, 3], 8, 8, 8, false, false, false], // batches broadcast both ways: stock
  ])(
    'BatchMatMul batch %j×%j M=%i K=%i N=%i transposeA=%s transposeB=%s (covered: %s) matches cpu',
    async (outerA, outerB, m, k, n, ta, tb, covered) => {
      const aShape = [...outerA, ...(ta ? [k, m] : [m, k])];
      const bShape = [...outerB, ...(tb ? [n, k] : [k, n])];
      const [av, bv] = tf.tidy(() => [rand(aShape, 11).dataSync(), rand(bShape, 12).dataSync()]);
      const operands = () => [tf.tensor(av, aShape), tf.tensor(bv, bShape)];
      const run = () => tf.tidy(() => tf.matMul(...(operands() as [tf.Tensor3D, tf.Tensor3D]), ta, tb).dataSync());
      await tf.setBackend('cpu');
      const ref = run() as Float32Array;
      const outShape = tf.tidy(() => tf.matMul(...(operands() as [tf.Tensor3D, tf.Tensor3D]), ta, tb).shape);
      await tf.setBackend('wasm');
      expect(relErr(ref, run() as Float32Array)).toBeLessThan(1e-5);
      const [a2, b2] = operands();
      const info = simdBatchMatMul({
        inputs: { a: a2, b: b2 },
        attrs: { transposeA: ta, transposeB: tb },
        backend: tf.backend(),
      });
      tf.dispose([a2, b2]);
      expect(info !== null).toBe(covered);
      if (info) {
        const t = tf.engine().makeTensorFromTensorInfo(info);
        expect(t.shape).toEqual(outShape);
        expect(relErr(ref, t.dataSync() as Float32Array)).toBeLessThan(1e-5);
        t.dispose();
      }
    },
  );

  it('refuses, naming the missing property, a backend without the tfjs-wasm heap', () => {
    expect(() => tfjsWasmHeap(tf.findBackend('cpu') as unknown as WasmBackendHeap)).toThrow(
      /backend\.wasm\.asm\.memory/,
    );
    const wasm = tf.findBackend('wasm') as unknown as WasmBackendHeap & { wasm: object };
    expect(() => tfjsWasmHeap({ ...wasm, wasm: { ...wasm.wasm, _malloc: undefined } } as WasmBackendHeap)).toThrow(
      /backend\.wasm\._malloc/,
    );
    expect(tfjsWasmHeap(wasm).memory.buffer).toBe((wasm.wasm as { HEAPU8: Uint8Array }).HEAPU8.buffer);
  });

  it('stays right when the heap grows between calls, and leaves no tensors or backend data behind', async () => {
    const known = c(9, 8, 16, 3, 2, 'same');
    const fresh = c(9, 16, 8, 3, 1, 'same'); // tables built after the growth
    const refs = await Promise.all(PASSES.flatMap((p) => [known, fresh].map((s) => onBackend('cpu', p, s))));
    await tf.setBackend('wasm');
    for (const p of PASSES) direct(p, known); // caches the geometry's tables
    const tensors = tf.memory().numTensors;
    const dataIds = tf.engine().backend.numDataIds();
    const memory = (tf.backend() as unknown as { wasm: { asm: { memory: { buffer: ArrayBuffer } } } }).wasm.asm.memory;
    const heapBefore = memory.buffer.byteLength;
    const big = tf.zeros([heapBefore / 4 + 1024 * 1024]); // larger than the whole heap: it must grow
    expect(memory.buffer.byteLength).toBeGreaterThan(heapBefore);
    const got = PASSES.flatMap((p) => [known, fresh].map((s) => direct(p, s)!));
    got.forEach((g, i) => expect(relErr(refs[i], g)).toBeLessThan(1e-5));
    big.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.engine().backend.numDataIds()).toBe(dataIds);
  });

  it('the registered kernels, covered or not, leave no tensors or backend data behind', async () => {
    await tf.setBackend('wasm');
    const shapes = [c(9, 8, 16, 3, 2, 'same'), c(5, 6, 12, 3, 1, 'same')];
    const runAll = () => {
      for (const s of shapes) {
        for (const p of PASSES) {
          tf.tidy(() => {
            const { name, inputs, attrs: a } = pass(p, s);
            tf.engine().runKernel(name, inputs, a);
          });
        }
      }
    };
    runAll(); // the first calls build per-shape tables and filters, kept on purpose
    const tensors = tf.memory().numTensors;
    const dataIds = tf.engine().backend.numDataIds();
    runAll();
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.engine().backend.numDataIds()).toBe(dataIds);
  });
});
