import * as tf from '@tensorflow/tfjs-core';
import { BOARD_SQUARES, HAND_KINDS, MOVE_LABELS, type HostBatch } from '@maou/bench-domain';
import { normalizePolicyTargets } from './loss/host-targets';
import { type NetworkInputs } from './network/shogi-network';
import type { UploadedBatch } from './uploaded-batch';

/** One (micro-)batch on the device: network inputs and the stage's targets. @public */
export interface DeviceBatch {
  readonly size: number;
  readonly inputs: NetworkInputs;
  /** Stage 3: [policy target, result value]; Stage 1/2: [multi-hot labels] */
  readonly targets: readonly tf.Tensor2D[];
  /** Stage 3 only: Σ t·log t of the normalised policy targets */
  readonly negEntropySum: number;
}

/** Copies rows [start, end) of a host batch to the device (Stage 3 targets normalised on the host). @public */
export function uploadBatch(batch: HostBatch, start: number, end: number): DeviceBatch {
  const n = end - start;
  const inputs: NetworkInputs = {
    boardIds: tf.tensor2d(
      batch.boardIds.subarray(start * BOARD_SQUARES, end * BOARD_SQUARES),
      [n, BOARD_SQUARES],
      'int32',
    ),
    hands: tf.tensor2d(batch.hands.subarray(start * HAND_KINDS, end * HAND_KINDS), [n, HAND_KINDS]),
  };
  const t = batch.targets;
  if (t.stage === 3) {
    const labels = t.moveLabel.subarray(start * MOVE_LABELS, end * MOVE_LABELS);
    const { target, negEntropySum } = normalizePolicyTargets(labels, n, MOVE_LABELS);
    const policy = tf.tensor2d(target, [n, MOVE_LABELS]);
    const value = tf.tensor2d(t.resultValue.subarray(start, end), [n, 1]);
    return { size: n, inputs, targets: [policy, value], negEntropySum };
  }
  const [data, width] = t.stage === 1 ? [t.reachableSquares, BOARD_SQUARES] : [t.legalMoves, MOVE_LABELS];
  return {
    size: n,
    inputs,
    targets: [tf.tensor2d(data.subarray(start * width, end * width), [n, width])],
    negEntropySum: 0,
  };
}

/** @public */
export function disposeDeviceBatch(b: DeviceBatch): void {
  tf.dispose([b.inputs.boardIds, b.inputs.hands, ...b.targets]);
}

/** An uploaded batch as the engine made it: its pieces' tensors (every `UploadedBatch` is one of these). @public */
export interface DeviceUploadedBatch extends UploadedBatch {
  readonly pieces: readonly DeviceBatch[];
}

/** Copies a host batch to the device in pieces of at most `pieceSize` rows. @public */
export function uploadPieces(batch: HostBatch, pieceSize: number): DeviceUploadedBatch {
  const pieces: DeviceBatch[] = [];
  for (let start = 0; start < batch.size; start += pieceSize)
    pieces.push(uploadBatch(batch, start, Math.min(batch.size, start + pieceSize)));
  return { size: batch.size, pieces };
}

/** @public */
export const isUploadedBatch = (b: HostBatch | UploadedBatch): b is UploadedBatch => 'pieces' in b;

/** An uploaded batch's pieces with their tensors: every `UploadedBatch` is made by `uploadPieces`. */
export const devicePieces = (b: UploadedBatch): readonly DeviceBatch[] => (b as DeviceUploadedBatch).pieces;

/** Frees an uploaded batch; safe to call again after a step consumed it. @public */
export function disposeUploadedBatch(b: UploadedBatch): void {
  for (const p of devicePieces(b)) disposeDeviceBatch(p);
}
