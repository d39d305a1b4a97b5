import { createRequire } from 'node:module';
import path from 'node:path';
import { err, ok, type Result } from '@maou/bench-domain';

/** The parts of a WebGPU adapter the plug-in reads (Dawn's `GPUAdapter`). @public */
export interface DawnAdapter {
  readonly info: {
    readonly vendor: string;
    readonly architecture: string;
    readonly device: string;
    readonly description: string;
    readonly isFallbackAdapter?: boolean;
  };
  readonly features: ReadonlySet<string>;
  readonly limits: Readonly<Record<string, number>>;
  /** older Dawn builds put the flag here instead of on `info` */
  readonly isFallbackAdapter?: boolean;
  requestDevice(descriptor?: unknown): Promise<unknown>;
}

/** Dawn's `navigator.gpu`. @public */
export interface DawnGpu {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<DawnAdapter | null>;
}

interface DawnBinding {
  create(flags: readonly string[]): DawnGpu;
  readonly globals: Readonly<Record<string, unknown>>;
}

const load = createRequire(__filename);
let cached: DawnGpu | undefined;

/**
 * Loads Dawn's Node binding (npm `webgpu`, an optional dependency) and exposes it as `navigator.gpu`
 * with the WebGPU globals (`GPUBufferUsage`, ...), which tfjs-backend-webgpu reads when it is loaded.
 * The package's ESM entry only picks the platform folder, so the binding is loaded directly: that
 * works from CommonJS and under jest alike.
 * @public
 */
export function loadDawn(flags: readonly string[] = []): Result<DawnGpu, string> {
  if (cached) return ok(cached);
  let root: string;
  try {
    root = path.dirname(load.resolve('webgpu/package.json'));
  } catch {
    return err(
      'the npm package `webgpu` (Dawn) is not installed: it is an optional dependency of ' +
        '@maou/bench-compute; run `pnpm install` on a platform it supports (linux-x64/arm64, darwin, win32)',
    );
  }
  const arch = process.platform === 'darwin' ? 'universal' : process.arch;
  const file = path.join(root, 'dist', `${process.platform}-${arch}`, 'dawn.node');
  let binding: DawnBinding;
  try {
    binding = load(file) as DawnBinding;
  } catch (e) {
    return err(`cannot load Dawn's binding ${file}: ${(e as Error).message} (it needs glibc 2.34 or newer)`);
  }
  const scope = globalThis as Record<string, unknown>;
  for (const [name, value] of Object.entries(binding.globals)) if (!(name in scope)) scope[name] = value;
  const gpu = binding.create([...flags]);
  // Node 20 has no `navigator`; Node 21+ has one without `gpu`.
  const nav = (scope.navigator ?? {}) as Record<string, unknown>;
  Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true, writable: true });
  if (scope.navigator === undefined) {
    Object.defineProperty(scope, 'navigator', { value: nav, configurable: true, writable: true });
  }
  cached = gpu;
  return ok(gpu);
}

/** Whether Dawn calls this adapter a software fallback (lavapipe, SwiftShader). @public */
export function isSoftwareAdapter(adapter: DawnAdapter): boolean {
  return (
    adapter.info.isFallbackAdapter === true ||
    adapter.isFallbackAdapter === true ||
    adapter.info.architecture === 'software'
  );
}
