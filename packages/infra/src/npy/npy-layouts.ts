import type { Stage } from '@maou/bench-domain';
import type { NpyField } from './npy-header';

/** A structured-dtype record layout of maou's raw `.npy` shards (spec §2.4, §2.5, §2.7, §2.8). @public */
export interface NpyLayout {
  readonly name: 'preprocessing' | 'legacy-standard' | 'legacy-packed' | 'stage1' | 'stage2';
  readonly stage: Stage;
  readonly itemsize: number;
  /** field name → byte offset within a record */
  readonly fields: Readonly<Record<string, number>>;
  /** field name → numpy type (code and size, byte order aside) and element count */
  readonly types: Readonly<Record<string, readonly [type: string, count: number]>>;
}

const BOARD_HAND = { boardIdPositions: ['u1', 81], piecesInHand: ['u1', 14] } as const;

/** @public */
export const NPY_LAYOUTS: readonly NpyLayout[] = [
  {
    name: 'preprocessing',
    stage: 3,
    itemsize: 3097,
    fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, moveLabel: 103, resultValue: 3095 },
    types: { id: ['u8', 1], ...BOARD_HAND, moveLabel: ['f2', 1496], resultValue: ['f2', 1] },
  },
  {
    name: 'legacy-standard',
    stage: 3,
    itemsize: 12922,
    fields: { id: 0, features: 8, moveLabel: 8432, resultValue: 11424, legalMoveMask: 11426 },
    types: {
      id: ['u8', 1],
      features: ['u1', 8424],
      moveLabel: ['f2', 1496],
      resultValue: ['f2', 1],
      legalMoveMask: ['u1', 1496],
    },
  },
  {
    name: 'legacy-packed',
    stage: 3,
    itemsize: 4242,
    fields: { id: 0, features_packed: 8, moveLabel: 1061, resultValue: 4053, legalMoveMask_packed: 4055 },
    types: {
      id: ['u8', 1],
      features_packed: ['u1', 1053],
      moveLabel: ['f2', 1496],
      resultValue: ['f2', 1],
      legalMoveMask_packed: ['u1', 187],
    },
  },
  {
    name: 'stage1',
    stage: 1,
    itemsize: 184,
    fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, reachableSquares: 103 },
    types: { id: ['u8', 1], ...BOARD_HAND, reachableSquares: ['u1', 81] },
  },
  {
    name: 'stage2',
    stage: 2,
    itemsize: 1599,
    fields: { id: 0, boardIdPositions: 8, piecesInHand: 89, legalMovesLabel: 103 },
    types: { id: ['u8', 1], ...BOARD_HAND, legalMovesLabel: ['u1', 1496] },
  },
];

/**
 * The layout a header's structured dtype describes: the same field names (in any order), and for each the type,
 * element count and offset maou's dtype has, so a header whose dtypes differ from the records is refused rather than
 * decoded as something else. Returns an error message otherwise.
 * @internal
 */
export const layoutForHeader = (fields: readonly NpyField[]): NpyLayout | string => {
  const names = fields.map((f) => f.name);
  const layout = NPY_LAYOUTS.find(
    (l) => Object.keys(l.fields).length === names.length && names.every((n) => n in l.fields),
  );
  if (!layout) return `unknown structured dtype with fields ${names.join(', ')}`;
  for (const f of fields) {
    const [type, count] = layout.types[f.name] ?? ['', 0];
    if (f.type !== type || f.count !== count || f.offset !== layout.fields[f.name]) {
      return `field ${f.name} is ${f.type}×${f.count} at byte ${f.offset} of the record; maou's ${layout.name} dtype has ${type}×${count} at byte ${layout.fields[f.name]}`;
    }
  }
  return layout;
};
