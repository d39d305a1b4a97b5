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

type Field = readonly [name: string, type: string, count: number];

/**
 * A layout from its fields in record order: numpy packs a structured dtype (no padding), so each field starts where
 * the one before it ends, and the record is as long as its fields. A type's size is its code's digits (`u8`, `f2`).
 */
const packed = (name: NpyLayout['name'], stage: Stage, list: readonly Field[]): NpyLayout => {
  const fields: Record<string, number> = {};
  const types: Record<string, readonly [string, number]> = {};
  let offset = 0;
  for (const [field, type, count] of list) {
    fields[field] = offset;
    types[field] = [type, count];
    offset += Number(type.slice(1)) * count;
  }
  return { name, stage, itemsize: offset, fields, types };
};

const ID: Field = ['id', 'u8', 1];
const BOARD_HAND: readonly Field[] = [
  ['boardIdPositions', 'u1', 81],
  ['piecesInHand', 'u1', 14],
];
const TARGETS: readonly Field[] = [
  ['moveLabel', 'f2', 1496],
  ['resultValue', 'f2', 1],
];
// The legacy shards differ only in whether the 104 feature planes and the legal-move mask are bit-packed.
const legacy = (name: 'legacy-standard' | 'legacy-packed', suffix: string, features: number, mask: number) =>
  packed(name, 3, [ID, [`features${suffix}`, 'u1', features], ...TARGETS, [`legalMoveMask${suffix}`, 'u1', mask]]);

/** @public */
export const NPY_LAYOUTS: readonly NpyLayout[] = [
  packed('preprocessing', 3, [ID, ...BOARD_HAND, ...TARGETS]),
  legacy('legacy-standard', '', 104 * 81, 1496),
  legacy('legacy-packed', '_packed', Math.ceil((104 * 81) / 8), Math.ceil(1496 / 8)),
  packed('stage1', 1, [ID, ...BOARD_HAND, ['reachableSquares', 'u1', 81]]),
  packed('stage2', 2, [ID, ...BOARD_HAND, ['legalMovesLabel', 'u1', 1496]]),
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
