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
}
