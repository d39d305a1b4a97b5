import type { Stage } from './stage';

/** Targets of one batch, by stage. @public */
export type BatchTargets =
  | { readonly stage: 3; readonly moveLabel: Float32Array; readonly resultValue: Float32Array }
  | { readonly stage: 1; readonly reachableSquares: Float32Array }
  | { readonly stage: 2; readonly legalMoves: Float32Array };

/**
 * One batch in host memory, laid out as the network consumes it (batch first, row-major):
 * boardIds B×81 as int32 embedding indices, hands B×14 as float32.
 * @public
 */
export interface HostBatch {
  readonly stage: Stage;
  readonly size: number;
  readonly boardIds: Int32Array;
  readonly hands: Float32Array;
  readonly targets: BatchTargets;
  /** set on the first batch cut from a file (a group, at Stage 2) its producer read just before it */
  readonly opened?: FileOpen;
}

/**
 * A streaming producer's read of the next file (at Stage 2, a group of up to 10): how many files and how long reading
 * and decoding them took in that producer, the time a consumer with nothing buffered would wait at the boundary.
 * @public
 */
export interface FileOpen {
  readonly files: number;
  readonly readMs: number;
}
