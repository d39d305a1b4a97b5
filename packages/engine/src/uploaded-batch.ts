// Kept apart from device-batch.ts so that the trainer contract (contracts.ts) names no tfjs type: a consumer's
// declarations then never load tfjs-core's, which bring the DOM lib and @webgpu/types (issue 42).

/** One piece of an uploaded batch as the contract sees it: its rows (the tensors are the engine's). @public */
export interface DevicePiece {
  readonly size: number;
}

/**
 * A host batch copied to the device ahead of its step by `Trainer.upload`, already split into the pieces the
 * trainer will run (micro-batches for training, one piece for evaluation). @public
 */
export interface UploadedBatch {
  /** rows of the whole batch */
  readonly size: number;
  readonly pieces: readonly DevicePiece[];
}
