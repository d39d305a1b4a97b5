import type { Setting } from './setting';

/** `--batch-size`: maou's default 256; the resource plan may derive a smaller one from memory. @public */
export const BATCH_SIZE = {
  flag: '--batch-size',
  default: 256,
  bounds: { min: 1, max: 65_536, integer: true },
} as const satisfies Setting;

/** `--device-prefetch`: batches uploaded ahead to the device, 0 = off. @public */
export const DEVICE_PREFETCH = {
  flag: '--device-prefetch',
  default: 3,
  bounds: { min: 0, max: 64, integer: true },
} as const satisfies Setting;

/** `--prefetch-factor`: batches each loader worker prepares ahead (PyTorch's default 2). @public */
export const PREFETCH_FACTOR = {
  flag: '--prefetch-factor',
  default: 2,
  bounds: { min: 1, max: 64, integer: true },
} as const satisfies Setting;

/** `--threads`: backend threads (on wasm, whole replicas); derived from the usable cores. @public */
export const THREADS: Setting = { flag: '--threads', bounds: { min: 1, max: 64, integer: true } };

/** `--dataloader-workers`: loader worker threads, 0 = the main thread; derived from cores and memory. @public */
export const LOADER_WORKERS: Setting = {
  flag: '--dataloader-workers',
  bounds: { min: 0, max: 256, integer: true },
};
