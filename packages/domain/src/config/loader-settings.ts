import type { NumberBounds } from '../errors/number-bounds';

/**
 * A configurable value with one owner: its flag, default and bounds live here, and the help text, the validation and
 * the planners read them (before, `--device-prefetch`'s 3 lived in its help, a `?? 3` and an unused constant).
 * @public
 */
export interface LoaderSetting {
  readonly flag: string;
  /** absent: derived from the resources (the domain's `planResources`) */
  readonly default?: number;
  readonly bounds: NumberBounds;
}

/** `--batch-size`: maou's default 256; the resource plan may derive a smaller one from memory. @public */
export const BATCH_SIZE = {
  flag: '--batch-size',
  default: 256,
  bounds: { min: 1, max: 65_536, integer: true },
} as const satisfies LoaderSetting;

/** `--device-prefetch`: batches uploaded ahead to the device, 0 = off. @public */
export const DEVICE_PREFETCH = {
  flag: '--device-prefetch',
  default: 3,
  bounds: { min: 0, max: 64, integer: true },
} as const satisfies LoaderSetting;

/** `--prefetch-factor`: batches each loader worker prepares ahead (PyTorch's default 2). @public */
export const PREFETCH_FACTOR = {
  flag: '--prefetch-factor',
  default: 2,
  bounds: { min: 1, max: 64, integer: true },
} as const satisfies LoaderSetting;

/** `--threads`: backend threads (on wasm, whole replicas); derived from the usable cores. @public */
export const THREADS: LoaderSetting = { flag: '--threads', bounds: { min: 1, max: 64, integer: true } };

/** `--dataloader-workers`: loader worker threads, 0 = the main thread; derived from cores and memory. @public */
export const LOADER_WORKERS: LoaderSetting = {
  flag: '--dataloader-workers',
  bounds: { min: 0, max: 256, integer: true },
};

/** "1 to 65,536 (default 256)", for a flag's help. @public */
export const describeSetting = (s: LoaderSetting): string =>
  `${s.bounds.min.toLocaleString('en-US')} to ${s.bounds.max.toLocaleString('en-US')}${s.default === undefined ? '' : ` (default ${s.default})`}`;
