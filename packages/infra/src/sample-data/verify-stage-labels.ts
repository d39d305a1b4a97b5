import { Position } from 'tsshogi';
import { moveLabel, positionFromFeatures, toSfen, type Stage2Columns, type Stage3Columns } from '@maou/bench-domain';
import { legalMove16s } from './tsshogi-legal-moves';

/** The first row whose targets name a move that is not legal in its (normalised) position, or null. @public */
export const findIllegalLabel = (c: Stage3Columns | Stage2Columns): { row: number; label: number } | null => {
  for (let row = 0; row < c.rows; row++) {
    const pos = positionFromFeatures(
      c.boardIdPositions.subarray(row * 81, row * 81 + 81),
      c.piecesInHand.subarray(row * 14, row * 14 + 14),
    );
    const tsPos = Position.newBySFEN(toSfen(pos));
    if (!tsPos) return { row, label: -1 };
    const legal = new Set(
      legalMove16s(tsPos).map((m) => {
        const l = moveLabel(0, m);
        return l.ok ? l.value : -1;
      }),
    );
    const targets = c.stage === 3 ? c.moveLabel : c.legalMovesLabel;
    for (let k = 0; k < 1496; k++) {
      const on = (targets[row * 1496 + k] ?? 0) > 0;
      // Stage 3: every labelled move is legal; Stage 2: the label set is exactly the legal set.
      if (on && !legal.has(k)) return { row, label: k };
      if (c.stage === 2 && !on && legal.has(k)) return { row, label: k };
    }
  }
  return null;
};
