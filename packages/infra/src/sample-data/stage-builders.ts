import { Position } from 'tsshogi';
import {
  decodeHcp,
  generateStage1,
  moveLabel,
  resultValue,
  toSfen,
  writeBoardIdPositions,
  writePiecesInHand,
  type HcpeColumns,
  type ShogiPosition,
  type Stage1Columns,
  type Stage2Columns,
  type Stage3Columns,
} from '@maou/bench-domain';
import { hash64 } from './seeded-random';
import type { ProgressCallback } from './random-games';
import { legalMove16s } from './tsshogi-legal-moves';

/** Stage columns plus the 64-bit ids written to the `id` column. @public */
export interface StageRecords<C> {
  readonly columns: C;
  readonly ids: BigUint64Array;
}

interface Group {
  first: number;
  count: number;
  valueSum: number;
  labels: Map<number, number>;
  /** per label: the summed result values (1 win, 0.5 draw, 0 loss) of the rows that played it */
  labelWins: Map<number, number>;
}

const positionAt = (hcpe: HcpeColumns, row: number): ShogiPosition => {
  const pos = decodeHcp(hcpe.hcp.subarray(row * 32, row * 32 + 32));
  if (!pos.ok) throw new Error(`HCPE row ${row}: ${pos.error}`);
  return pos.value;
};

/** Groups HCPE rows by position (first `limit` distinct positions, in order of first appearance). */
const groupRows = (hcpe: HcpeColumns, limit: number, withLabels: boolean): Group[] => {
  const groups = new Map<string, Group>();
  for (let row = 0; row < hcpe.rows; row++) {
    const key = Buffer.from(hcpe.hcp.subarray(row * 32, row * 32 + 32)).toString('latin1');
    let g = groups.get(key);
    if (!g) {
      if (groups.size >= limit) continue;
      g = { first: row, count: 0, valueSum: 0, labels: new Map(), labelWins: new Map() };
      groups.set(key, g);
    }
    g.count++;
    if (!withLabels) continue;
    const turn = (hcpe.hcp[row * 32] ?? 0) & 1 ? 1 : 0;
    const label = moveLabel(turn, hcpe.bestMove16[row] ?? 0);
    // maou aborts on an unlabelled move; here it would mean a generator bug.
    if (!label.ok) throw new Error(`HCPE row ${row} (${hcpe.id[row]}): ${label.error}`);
    const value = resultValue(turn, hcpe.gameResult[row] ?? 0);
    g.labels.set(label.value, (g.labels.get(label.value) ?? 0) + 1);
    g.labelWins.set(label.value, (g.labelWins.get(label.value) ?? 0) + value);
    g.valueSum += value;
  }
  return [...groups.values()];
};

/** Orders groups by their 64-bit id, as maou orders its output by hash. */
const sortById = (hcpe: HcpeColumns, groups: Group[]): { groups: Group[]; ids: BigUint64Array } => {
  const keyed = groups.map((g) => ({ g, id: hash64(hcpe.hcp.subarray(g.first * 32, g.first * 32 + 32)) }));
  keyed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { groups: keyed.map((k) => k.g), ids: BigUint64Array.from(keyed.map((k) => k.id)) };
};

// maou's pre-process defaults: --position-count-threshold 2, --prior-strength 5.0, --win-rate-fallback neutral.
const POSITION_COUNT_THRESHOLD = 2;
const PRIOR_STRENGTH = 5;
const NEUTRAL_WIN_RATE = 0.5;

/**
 * Per-move win rates of one position as maou's intermediate store computes them: (wins + prior) / (plays + 2·prior)
 * for each played move, or a neutral 0.5 for each when the position was seen fewer than the threshold times; moves
 * never played stay 0. Returns the row's largest rate (bestMoveWinRate).
 */
const writeMoveWinRates = (g: Group, out: Float32Array, at: number): number => {
  let best = 0;
  for (const [label, plays] of g.labels) {
    const wins = g.labelWins.get(label) ?? 0;
    const rate =
      g.count < POSITION_COUNT_THRESHOLD
        ? NEUTRAL_WIN_RATE
        : Math.min(1, Math.max(0, (wins + PRIOR_STRENGTH) / (plays + 2 * PRIOR_STRENGTH)));
    out[at + label] = rate;
    best = Math.max(best, Math.fround(rate));
  }
  return best;
};

/**
 * Stage 3 preprocessing rows: label histogram / count, mean result, and per-move win rates (maou HEAD) per distinct
 * position (spec §8.3).
 * @public
 */
export const buildStage3 = (hcpe: HcpeColumns, limit: number): StageRecords<Stage3Columns> => {
  const { groups, ids } = sortById(hcpe, groupRows(hcpe, limit, true));
  const n = groups.length;
  const board = new Uint8Array(n * 81);
  const hand = new Uint8Array(n * 14);
  const labels = new Float32Array(n * 1496);
  const values = new Float32Array(n);
  const winRates = new Float32Array(n * 1496);
  const best = new Float32Array(n);
  groups.forEach((g, i) => {
    const pos = positionAt(hcpe, g.first);
    writeBoardIdPositions(pos, board, i * 81);
    writePiecesInHand(pos, hand, i * 14);
    for (const [label, count] of g.labels) labels[i * 1496 + label] = count / g.count;
    values[i] = g.valueSum / g.count;
    best[i] = writeMoveWinRates(g, winRates, i * 1496);
  });
  return {
    columns: {
      stage: 3,
      rows: n,
      boardIdPositions: board,
      piecesInHand: hand,
      moveLabel: labels,
      moveWinRate: winRates,
      bestMoveWinRate: best,
      resultValue: values,
    },
    ids,
  };
};

/** Stage 2 rows: multi-hot legal-move labels of each distinct position (spec §8.2). @public */
export const buildStage2 = (
  hcpe: HcpeColumns,
  limit: number,
  onProgress?: ProgressCallback,
): StageRecords<Stage2Columns> => {
  const { groups, ids } = sortById(hcpe, groupRows(hcpe, limit, false));
  const n = groups.length;
  const board = new Uint8Array(n * 81);
  const hand = new Uint8Array(n * 14);
  const legal = new Uint8Array(n * 1496);
  groups.forEach((g, i) => {
    const pos = positionAt(hcpe, g.first);
    writeBoardIdPositions(pos, board, i * 81);
    writePiecesInHand(pos, hand, i * 14);
    const tsPos = Position.newBySFEN(toSfen(pos));
    if (!tsPos) throw new Error(`HCPE row ${g.first}: position not accepted by tsshogi`);
    for (const m of legalMove16s(tsPos)) {
      const label = moveLabel(pos.turn, m);
      if (!label.ok) throw new Error(`HCPE row ${g.first}: legal move ${m}: ${label.error}`);
      legal[i * 1496 + label.value] = 1;
    }
    if (i % 256 === 0 || i === n - 1) onProgress?.(i + 1, n, 'legal moves');
  });
  return { columns: { stage: 2, rows: n, boardIdPositions: board, piecesInHand: hand, legalMovesLabel: legal }, ids };
};

/** Stage 1 rows: maou's 1,105 reachable-square patterns, repeated cyclically to `rows`. @public */
export const buildStage1 = (rows: number): StageRecords<Stage1Columns> => {
  const base = generateStage1();
  const n = rows;
  const tile = (src: Uint8Array, per: number): Uint8Array => {
    const out = new Uint8Array(n * per);
    for (let r = 0; r < n; r++)
      out.set(src.subarray((r % base.columns.rows) * per, ((r % base.columns.rows) + 1) * per), r * per);
    return out;
  };
  return {
    columns: {
      stage: 1,
      rows: n,
      boardIdPositions: tile(base.columns.boardIdPositions, 81),
      piecesInHand: tile(base.columns.piecesInHand, 14),
      reachableSquares: tile(base.columns.reachableSquares, 81),
    },
    ids: BigUint64Array.from({ length: n }, (_, r) => base.ids[r % base.columns.rows] ?? 0n),
  };
};
