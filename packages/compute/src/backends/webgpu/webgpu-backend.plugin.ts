import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
import type { BackendInfo, GpuAdapterInfo } from '@maou/bench-engine/contracts';
import { err, ok, type ComputeConfig, type Result } from '@maou/bench-domain';
import { withoutPlatformWarning } from '@maou/bench-host';
import { selectedByName, type BackendPlugin } from '../../backend-plugin';
import { registerFastFilterGradient } from './conv2d-filter-grad.kernel';
import { isSoftwareAdapter, loadDawn, type DawnAdapter } from './dawn-runtime';
import { webgpuIm2Col } from './filter-im2col.program';
import { registerFusedKernels } from './fused-kernels.kernel';
import { withPooledUploads } from './pooled-upload';
import { registerRankSafeSum } from './rank-safe-sum.kernel';
import { defaultVulkanSearch, describeNoAdapter, diagnoseVulkan } from './vulkan-diagnosis';
import { plannedStepTrainers } from './planned/planned-step-factory';

/** Knobs for measurements and tests; the CLI uses the defaults. @public */
export interface WebgpuStartOptions {
  /** Dawn toggles, e.g. `backend=vulkan` (see the `webgpu` npm README) */
  readonly dawnFlags?: readonly string[];
  /**
   * false keeps tfjs's stock Conv2DBackpropFilter shader and the engine's composed GELU, layer norm, AdamW and
   * clipping (for A/B timing)
   */
  readonly fastKernels?: boolean;
  /** false keeps tfjs's stock upload path (a new staging buffer per upload), for A/B timing */
  readonly pooledUploads?: boolean;
}

interface WebgpuModule {
  WebGPUBackend: new (device: unknown, adapterInfo?: unknown) => tf.KernelBackend;
  webgpu_util: Parameters<typeof webgpuIm2Col>[0];
}

const load = createRequire(__filename);
/** tfjs-backend-webgpu, which may bring another tfjs-core copy: loaded without tfjs's platform warning. */
const loadWebgpu = (): WebgpuModule =>
  withoutPlatformWarning(() => load('@tensorflow/tfjs-backend-webgpu') as WebgpuModule);
const NAME = 'webgpu';
let restoreStock: (() => void) | undefined;

const adapterInfo = (adapter: DawnAdapter): GpuAdapterInfo => ({
  vendor: adapter.info.vendor,
  architecture: adapter.info.architecture,
  device: adapter.info.device,
  description: adapter.info.description,
  softwareFallback: isSoftwareAdapter(adapter),
});

/** The same device request as tfjs-backend-webgpu's own factory, on the adapter we already hold. */
async function createBackend(adapter: DawnAdapter, pooledUploads: boolean, f16: boolean): Promise<tf.KernelBackend> {
  const module = loadWebgpu();
  const limits = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: [
      ...(adapter.features.has('timestamp-query') ? ['timestamp-query'] : []),
      // only when asked: a device with shader-f16 may have other limits or a slower path on some drivers
      ...(f16 ? ['shader-f16'] : []),
    ],
    requiredLimits: {
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupSizeX: limits.maxComputeWorkgroupSizeX,
      maxComputeInvocationsPerWorkgroup: limits.maxComputeInvocationsPerWorkgroup,
      // the planned step's batch-norm backward binds up to 11 storage buffers (WebGPU's default is 8)
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
    },
  });
  const Backend = pooledUploads ? withPooledUploads(module.WebGPUBackend) : module.WebGPUBackend;
  return new Backend(device, adapter.info);
}

/**
 * Starts tfjs's WebGPU backend on Dawn (Vulkan on Linux: NVIDIA's driver, or lavapipe without a GPU).
 * With `backend: 'auto'` a software adapter is refused, since wasm is faster on the CPU; naming
 * `webgpu` accepts it. Errors name what is missing (package, Vulkan loader, driver, libglvnd).
 * @public
 */
export async function startWebgpuBackend(
  config: ComputeConfig,
  options: WebgpuStartOptions = {},
): Promise<Result<BackendInfo, string>> {
  const gpu = loadDawn(options.dawnFlags ?? []);
  if (!gpu.ok) return gpu;
  const adapter = await gpu.value.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return err(describeNoAdapter(diagnoseVulkan(defaultVulkanSearch())));
  const info = adapterInfo(adapter);
  if (config.mixedPrecision && !adapter.features.has('shader-f16'))
    return err(
      `--mixed-precision needs the WebGPU adapter feature shader-f16 (f16 activations), which ${info.description || 'this adapter'} lacks; leave --mixed-precision out to train in f32`,
    );
  if (config.backend === 'auto' && info.softwareFallback) {
    return err(`WebGPU found only a software adapter (${info.description}); pass --gpu webgpu to use it anyway`);
  }
  let version: string;
  try {
    version = (load('@tensorflow/tfjs-backend-webgpu/package.json') as { version: string }).version;
  } catch {
    return err(
      'the npm package @tensorflow/tfjs-backend-webgpu is not installed (optional dependency of @maou/bench-compute)',
    );
  }
  // Loading the package registers a factory that asks for its own adapter: replace it with ours.
  if (!tf.findBackend(NAME)) {
    loadWebgpu();
    if (tf.findBackendFactory(NAME)) tf.removeBackend(NAME);
    const f16 = config.mixedPrecision === true;
    tf.registerBackend(NAME, () => createBackend(adapter, options.pooledUploads ?? true, f16), 1);
    registerRankSafeSum(NAME);
  }
  const fast = options.fastKernels ?? true;
  if (fast && !restoreStock) {
    const util = loadWebgpu().webgpu_util;
    const undo = [registerFastFilterGradient(NAME, webgpuIm2Col(util)), registerFusedKernels(NAME, util)];
    restoreStock = () => undo.forEach((u) => u());
  }
  if (!fast && restoreStock) {
    restoreStock();
    restoreStock = undefined;
  }
  if (!(await tf.setBackend(NAME))) return err(`tfjs could not initialise the WebGPU backend on ${info.description}`);
  const notes = [
    `WebGPU adapter: ${info.vendor} ${info.device} (${info.description}), architecture ${info.architecture || 'n/a'}`,
  ];
  if (info.softwareFallback)
    notes.push('software adapter (CPU): checks correctness, its speed says nothing about a GPU');
  if (fast)
    notes.push(
      'Conv2DBackpropFilter: im2col + batched matmul instead of the stock shader; ' +
        'GELU, layer norm, AdamW and gradient clipping: fused WGSL kernels',
    );
  if (config.deviceIndex > 0)
    notes.push(
      `device index ${config.deviceIndex} ignored: Dawn takes the high-performance adapter (select GPUs with VK_DRIVER_FILES or the container's visible devices)`,
    );
  return ok({
    name: NAME,
    version,
    threads: 1,
    device: `${info.vendor} ${info.device}`.trim(),
    notes,
    gpuAdapter: info,
  });
}

const HINT =
  'optional packages webgpu@0.6.2 and @tensorflow/tfjs-backend-webgpu@4.22.0; on Linux a Vulkan loader ' +
  '(libvulkan1) and driver: NVIDIA driver (its nvidia_icd.json) plus libglvnd, or Mesa >= 23 lavapipe (scripts/setup-lavapipe.sh); see docs/webgpu.md';

/**
 * The `webgpu` compute backend plug-in (`--gpu webgpu`). Priority 30: below `tensorflow-gpu` (CUDA),
 * above libtensorflow on the CPU, wasm and cpu, so `auto` takes it when a hardware adapter exists.
 * @public
 */
export const webgpuBackendPlugin: BackendPlugin = {
  name: NAME,
  usage: NAME,
  help: '',
  placement: 'device',
  mixedPrecision: true,
  dataParallel: false,
  trainer: plannedStepTrainers,
  selects: selectedByName(NAME),
  priority: 30,
  async start(config) {
    const started = await startWebgpuBackend(config);
    return started.ok ? started : err({ backend: NAME, message: started.error, hint: HINT });
  },
};
