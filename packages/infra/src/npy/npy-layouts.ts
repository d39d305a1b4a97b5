import type { Stage } from '@maou/bench-domain';

/** A structured-dtype record layout of maou's raw `.npy` shards (spec §2.4, §2.5, §2.7, §2.8). @public */
export interface NpyLayout {
  readonly name: 'preprocessing' | 'legacy-standard' | 'legacy-packed' | 'stage1' | 'stage2';
  readonly stage: Stage;
  readonly itemsize: number;
  /** field name → byte offset within a record */
  readonly fields: Readonly<Record<string, number>>;
}

/** @public */
export const NPY_LAYOUTS: readonly NpyLayout[] = [
  { name: 'preprocessing', stage: 3, itemsize: 3097, fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, moveLabel: 103, resultValue: 3095 } },
  { name: 'legacy-standard', stage: 3, itemsize: 12922, fields: { id: 0, features: 8, moveLabel: 8432, resultValue: 11424, legalMoveMask: 11426 } },
  { name: 'legacy-packed', stage: 3, itemsize: 4242, fields: { id: 0, features_packed: 8, moveLabel: 1061, resultValue: 4053, legalMoveMask_packed: 4055 } },
  { name: 'stage1', stage: 1, itemsize: 184, fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, reachableSquares: 103 } },
  { name: 'stage2', stage: 2, itemsize: 1599, fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, legalMovesLabel: 103 } },
];

/** The layout whose field names match a numpy header's fields (all of them, in any order). @internal */
export const layoutByFields = (names: readonly string[]): NpyLayout | undefined =>
  NPY_LAYOUTS.find((l) => Object.keys(l.fields).length === names.length && names.every((n) => n in l.fields));
