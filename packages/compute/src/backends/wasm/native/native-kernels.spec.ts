import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CPU_KERNELS_ENV, describeCpuKernels, NATIVE_BUILD_DIR, selectCpuKernels } from './native-kernels';

// The install-time build (packages/compute/scripts/build-native-kernels.cjs with the real g++) and the choice between the native
// kernels and the WebAssembly fallback: what runs, what the report says, and what is refused.
const script = path.resolve(__dirname, '../../../../scripts/build-native-kernels.cjs');
const build = (out: string, env: NodeJS.ProcessEnv = {}): string =>
  execFileSync(process.execPath, [script, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
const status = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'status.json'), 'utf8')) as { built: boolean; reason?: string };

describe('native convolution kernels: build and selection', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-native-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('given g++ and the Node headers, the build makes an addon that auto selects, with its widest ISA', () => {
    build(tmp);
    expect(status(tmp).built).toBe(true);
    const s = selectCpuKernels('auto', tmp);
    expect(s.kind).toBe('native');
    if (s.kind === 'native') expect(describeCpuKernels(s)).toMatch(/^native AVX(-512|2) kernels/);
  });

  it('given no compiler, the install still succeeds, and auto falls back to the wasm kernels saying why', () => {
    const out = execFileSync(process.execPath, [script, '--out', tmp], {
      encoding: 'utf8',
      env: { ...process.env, CXX: path.join(tmp, 'no-such-c++') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
    expect(status(tmp)).toMatchObject({ built: false, reason: expect.stringMatching(/no C\+\+ compiler/) });
    expect(fs.existsSync(path.join(tmp, 'maou-kernels.node'))).toBe(false);
    const s = selectCpuKernels('auto', tmp);
    expect(s).toEqual({
      kind: 'wasm',
      reason: expect.stringMatching(/native kernels not built at install: no C\+\+ compiler/),
    });
    expect(describeCpuKernels(s)).toMatch(
      /^WebAssembly SIMD kernels: .*\(not native: native kernels not built at install: no C\+\+ compiler/,
    );
  });

  it('given --strict and no compiler, the build exits 1', () => {
    expect(() =>
      execFileSync(process.execPath, [script, '--out', tmp, '--strict'], {
        env: { ...process.env, CXX: path.join(tmp, 'no-such-c++') },
        stdio: 'pipe',
      }),
    ).toThrow(/no C\+\+ compiler/);
  });

  it('given no build at all, auto falls back naming the missing file; an explicit ISA is an error, not a fallback', () => {
    expect(selectCpuKernels('auto', tmp)).toEqual({
      kind: 'wasm',
      reason: expect.stringContaining(path.join(tmp, 'maou-kernels.node')),
    });
    expect(() => selectCpuKernels('avx512', tmp)).toThrow(
      new RegExp(`${CPU_KERNELS_ENV}=avx512: the native kernels are not built`),
    );
  });

  it('given an addon that cannot load, auto falls back with the loader error', () => {
    fs.writeFileSync(path.join(tmp, 'maou-kernels.node'), 'not a shared object');
    expect(selectCpuKernels('auto', tmp)).toEqual({
      kind: 'wasm',
      reason: expect.stringMatching(/^native kernels failed to load: /),
    });
    expect(() => selectCpuKernels('avx2', tmp)).toThrow(/MAOU_CPU_KERNELS=avx2: native kernels failed to load/);
  });

  it(`reads ${CPU_KERNELS_ENV}: wasm chooses the fallback, a value it does not know is an error naming the variable`, () => {
    const before = process.env[CPU_KERNELS_ENV];
    try {
      process.env[CPU_KERNELS_ENV] = 'wasm';
      expect(selectCpuKernels()).toEqual({ kind: 'wasm', reason: `${CPU_KERNELS_ENV}=wasm` });
      process.env[CPU_KERNELS_ENV] = 'sse';
      expect(() => selectCpuKernels()).toThrow(`${CPU_KERNELS_ENV}=sse: expected auto, wasm, avx512 or avx2`);
    } finally {
      if (before === undefined) delete process.env[CPU_KERNELS_ENV];
      else process.env[CPU_KERNELS_ENV] = before;
    }
  });
});

describe('native convolution kernels: the addon refuses what would reach outside the heap', () => {
  const s = selectCpuKernels('auto', NATIVE_BUILD_DIR);
  const heap = new ArrayBuffer(1 << 16);
  const isa = 0;

  it('is built by pnpm install on this machine', () => expect(s.kind).toBe('native'));

  it('checks regions, index tables, pair tables, channel multiples and the ISA', () => {
    if (s.kind !== 'native') throw new Error(s.reason);
    const a = s.addon;
    // y of 8 floats at the last bytes of the heap.
    expect(() => a.conv_fwd(isa, heap, 1, 1, 8, 8, 0, 64, 1, 128, 256, heap.byteLength - 16)).toThrow(
      /argument 12: 8 elements at byte 65520 lie outside the 65536-byte heap/,
    );
    // An index naming pixel 5 of a 1-pixel x.
    new Int32Array(heap, 0, 1)[0] = 5;
    expect(() => a.conv_fwd(isa, heap, 1, 1, 8, 8, 0, 64, 1, 128, 256, 1024)).toThrow(
      /index table names a pixel outside x/,
    );
    new Int32Array(heap, 0, 1)[0] = 0;
    expect(() => a.conv_fwd(isa, heap, 1, 1, 8, 12, 0, 64, 1, 128, 256, 1024)).toThrow(/multiple of 8/);
    expect(() => a.conv_dx(isa, heap, 1, 1, 12, 8, 0, 64, 256, 1024, 1)).toThrow(/multiple of 8/);
    // A pair (x pixel 3, dy pixel 0) with one x pixel.
    new Int32Array(heap, 0, 4).set([0, 1, 3, 0]);
    expect(() => a.conv_dw(isa, heap, 1, 8, 8, 0, 8, 64, 1, 128, 1, 256, 0)).toThrow(
      /pair table names a pixel outside x/,
    );
    expect(() => a.conv_dw(isa, heap, 1, 8, 8, 0, 8, 64, 1, 128, 1, 256, 1)).not.toThrow();
    expect(() => a.pack(isa, heap, 4, 24, 16, 0, 0, 512)).toThrow(/multiple of 8 that divides N/);
    expect(() => a.conv_fwd(7, heap, 1, 1, 8, 8, 0, 64, 1, 128, 256, 1024)).toThrow(/does not support/);
    expect(() =>
      a.conv_fwd(isa, new ArrayBuffer(8).slice(0) as ArrayBuffer, 1, 1, 8, 8, 0, 64, 1, 128, 256, 1024),
    ).toThrow(/outside/);
    expect(() =>
      (a.conv_fwd as (...x: unknown[]) => void)(isa, new Float32Array(4), 1, 1, 8, 8, 0, 64, 1, 128, 256, 1024),
    ).toThrow(/ArrayBuffer/);
  });

  it('computes a 1×1 product in place: y = x·W', () => {
    if (s.kind !== 'native') throw new Error(s.reason);
    const f = new Float32Array(heap);
    const i = new Int32Array(heap);
    i.set([0, 1], 0); // ind: output pixel m reads input pixel m
    f.set(
      Array.from({ length: 16 }, (_, k) => k + 1),
      16,
    ); // x [2, 8] at byte 64
    f.set(new Array(8).fill(0), 48); // zero row at byte 192
    f.set(
      Array.from({ length: 64 }, (_, k) => (k % 9 === 0 ? 2 : 0)),
      64,
    ); // W = 2·I [8, 8] at byte 256
    s.addon.pack(isa, heap, 8, 8, 8, 0, 256, 1024);
    s.addon.conv_fwd(isa, heap, 2, 1, 8, 8, 0, 64, 2, 192, 1024, 2048);
    expect(Array.from(f.subarray(512, 528))).toEqual(Array.from({ length: 16 }, (_, k) => 2 * (k + 1)));
  });
});
