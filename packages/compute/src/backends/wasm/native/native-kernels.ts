import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The instruction sets the native addon is built for, in the order `auto` tries them. @public */
export const NATIVE_ISAS = ['avx512', 'avx2'] as const;
/** One of them. @public */
export type NativeIsa = (typeof NATIVE_ISAS)[number];
/** What `MAOU_CPU_KERNELS` may ask for: `auto` (the default), `wasm`, or one instruction set. @public */
export type CpuKernelChoice = 'auto' | 'wasm' | NativeIsa;

/** The environment variable that chooses the convolution and matrix-product kernels of the wasm engine (read by every replica). @public */
export const CPU_KERNELS_ENV = 'MAOU_CPU_KERNELS';

/**
 * The convolution kernels as both builds export them: the native addon (addon.cc) and conv-kernels.c (WebAssembly).
 * Pointers are byte offsets into the tfjs heap. `Lead` is what comes first (the addon: the ISA and the heap's buffer;
 * WebAssembly: nothing, the heap is its own Memory); `Rows` is x's and dy's row count where the build bounds its reads
 * with them (the addon) and nothing where it does not (conv-kernels.c).
 * @public
 */
export interface ConvKernels<Lead extends unknown[], Rows extends [rows: number] | []> {
  conv_fwd(...args: [...Lead, ...ConvGeometry, x: number, ...mx: Rows, zrow: number, wp: number, y: number]): void;
  conv_dx(...args: [...Lead, ...ConvGeometry, dy: number, wtp: number, dx: number, mx: number]): void;
  conv_dw(
    ...args: [...Lead, ...ConvPairs, x: number, ...mx: Rows, dy: number, ...my: Rows, dw: number, dense: number]
  ): void;
}

/** The forward and input-gradient kernels' geometry: output pixels, taps, channels in and out, the tap index table. @public */
export type ConvGeometry = [m: number, t: number, ci: number, co: number, ind: number];
/** The filter-gradient kernel's geometry: taps, channels in and out, and its (start, pairs) table of pixel pairs. @public */
export type ConvPairs = [t: number, ci: number, co: number, start: number, pairs: number];

/** The addon's functions (addon.cc beside this file): the first two arguments are the ISA and the heap's buffer. */
export interface NativeAddon extends ConvKernels<[isa: number, heap: ArrayBuffer], [rows: number]> {
  supported(isa: number): boolean;
  pack(
    isa: number,
    heap: ArrayBuffer,
    k: number,
    n: number,
    s: number,
    transposed: number,
    w: number,
    out: number,
  ): void;
}

/** The native kernels this process runs, or why it runs the WebAssembly ones. @public */
export type CpuKernelSelection =
  | { readonly kind: 'native'; readonly isa: NativeIsa; readonly addon: NativeAddon }
  | { readonly kind: 'wasm'; readonly reason: string };

/** Where scripts/build-native-kernels.cjs puts the addon (the same from src/ and dist/). @internal */
export const NATIVE_BUILD_DIR = path.resolve(__dirname, '../../../../native-build');

function parseChoice(raw: string | undefined): CpuKernelChoice {
  const v = (raw ?? '').trim() || 'auto';
  if (v === 'auto' || v === 'wasm' || (NATIVE_ISAS as readonly string[]).includes(v)) return v as CpuKernelChoice; // MAOU_CPU_KERNELS' value: not a plug-in name
  throw new Error(`${CPU_KERNELS_ENV}=${raw}: expected auto, wasm, ${NATIVE_ISAS.join(' or ')}`);
}

/** Why the addon is missing, from the status the build wrote. */
function notBuiltReason(dir: string): string {
  try {
    const status = JSON.parse(fs.readFileSync(path.join(dir, 'status.json'), 'utf8')) as {
      built?: boolean;
      reason?: string;
    };
    if (status.built === false && status.reason) return `not built at install: ${status.reason}`;
  } catch {
    // no status: the build never ran
  }
  return `not built (${path.join(dir, 'maou-kernels.node')} is missing; reinstall @maou/bench-compute, or run: node scripts/build-native-kernels.cjs in its folder)`;
}

/**
 * Picks the convolution kernels: with `auto`, the native addon's widest instruction set this CPU supports, else the
 * WebAssembly SIMD kernels with the reason. An explicit instruction set that cannot run is an error, not a fallback.
 * @public
 */
export function selectCpuKernels(
  choice: CpuKernelChoice = parseChoice(process.env[CPU_KERNELS_ENV]),
  dir = NATIVE_BUILD_DIR,
): CpuKernelSelection {
  if (choice === 'wasm') return { kind: 'wasm', reason: `${CPU_KERNELS_ENV}=wasm` }; // MAOU_CPU_KERNELS' value: not a plug-in name
  const file = path.join(dir, 'maou-kernels.node');
  let addon: NativeAddon;
  if (!fs.existsSync(file)) {
    const reason = notBuiltReason(dir);
    if (choice !== 'auto') throw new Error(`${CPU_KERNELS_ENV}=${choice}: the native kernels are ${reason}`);
    return { kind: 'wasm', reason: `native kernels ${reason}` };
  }
  try {
    addon = createRequire(__filename)(file) as NativeAddon;
  } catch (e) {
    const reason = `native kernels failed to load: ${(e as Error).message.split('\n')[0]}`;
    if (choice !== 'auto') throw new Error(`${CPU_KERNELS_ENV}=${choice}: ${reason}`);
    return { kind: 'wasm', reason };
  }
  const wanted = choice === 'auto' ? NATIVE_ISAS : [choice];
  const isa = wanted.find((i) => addon.supported(NATIVE_ISAS.indexOf(i)));
  if (isa) return { kind: 'native', isa, addon };
  if (choice !== 'auto') throw new Error(`${CPU_KERNELS_ENV}=${choice}: this CPU does not support ${choice}`);
  return { kind: 'wasm', reason: 'this CPU supports neither AVX-512 nor AVX2 with FMA' };
}

let selected: CpuKernelSelection | null = null;

/** The selection of this thread, made once (each replica's worker makes its own from the same environment). @public */
export function cpuKernelSelection(): CpuKernelSelection {
  selected ??= selectCpuKernels();
  return selected;
}

/** Makes `choice` this thread's selection (specs and benchmarks compare the kernel sets in one process). @public */
export function useCpuKernels(choice: CpuKernelChoice): CpuKernelSelection {
  selected = selectCpuKernels(choice);
  return selected;
}

/** One line for the report: which convolution kernels ran, and why not the native ones where they did not. @public */
export function describeCpuKernels(s: CpuKernelSelection): string {
  return s.kind === 'native'
    ? `native ${s.isa === 'avx512' ? 'AVX-512' : 'AVX2'} kernels (compiled at install): Conv2D, Conv2DBackpropFilter/Input, BatchMatMul`
    : `WebAssembly SIMD kernels: Conv2D, Conv2DBackpropFilter/Input, BatchMatMul (not native: ${s.reason})`;
}
