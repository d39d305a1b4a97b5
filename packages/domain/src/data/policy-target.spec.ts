import { DEFAULT_POLICY_TARGET_MODE, selectPolicyTarget } from './policy-target';
import type { Stage3Columns } from './stage-columns';

// Two rows: row 0 played moves 3 (3 times) and 7 (once); row 1 only move 5. Win rates as maou's smoothing gives them.
const rows = 2;
const moveLabel = new Float32Array(rows * 1496);
moveLabel.set([0.75], 3);
moveLabel.set([0.25], 7);
moveLabel.set([1], 1496 + 5);
const moveWinRate = new Float32Array(rows * 1496);
moveWinRate.set([0.6], 3);
moveWinRate.set([0.2], 7);
moveWinRate.set([0.5], 1496 + 5);
const base: Stage3Columns = {
  stage: 3,
  rows,
  boardIdPositions: new Uint8Array(rows * 81),
  piecesInHand: new Uint8Array(rows * 14),
  moveLabel,
  resultValue: Float32Array.of(1, 0),
};
const withRates: Stage3Columns = { ...base, moveWinRate, bestMoveWinRate: Float32Array.of(0.6, 0.5) };

const target = (c: Stage3Columns, mode: Parameters<typeof selectPolicyTarget>[1]): Float32Array => {
  const r = selectPolicyTarget(c, mode);
  if (!r.ok || r.value.stage !== 3) throw new Error(`expected Stage 3 columns, got ${JSON.stringify(r)}`);
  return r.value.moveLabel;
};

describe('policy target modes (maou --policy-target-mode)', () => {
  it("defaults to maou's win-rate", () => {
    expect(DEFAULT_POLICY_TARGET_MODE).toBe('win-rate');
  });

  it('given move-label, then the played-move distribution is the target, with or without win rates', () => {
    expect(target(base, 'move-label')).toBe(moveLabel);
    expect(target(withRates, 'move-label')).toBe(moveLabel);
  });

  it('given win-rate, then the per-move win rates are the target', () => {
    expect(target(withRates, 'win-rate')).toBe(moveWinRate);
  });

  it('given weighted, then the target is moveLabel × moveWinRate per move', () => {
    const t = target(withRates, 'weighted');
    const f = Math.fround;
    expect([t[3], t[7], t[1496 + 5]]).toEqual([f(f(0.75) * f(0.6)), f(f(0.25) * f(0.2)), 0.5]);
    expect(t.reduce((n, v) => n + (v > 0 ? 1 : 0), 0)).toBe(3);
  });

  it.each(['win-rate', 'weighted'] as const)(
    'given %s and rows without moveWinRate, then it fails naming the column instead of training on zeros',
    (mode) => {
      expect(selectPolicyTarget(base, mode)).toEqual({ ok: false, error: 'moveWinRate' });
    },
  );

  it('given Stage 1 or 2 rows, then they pass unchanged whatever the mode', () => {
    const s2 = { stage: 2 as const, rows: 0, boardIdPositions: new Uint8Array(0), piecesInHand: new Uint8Array(0) };
    const c = { ...s2, legalMovesLabel: new Uint8Array(0) };
    expect(selectPolicyTarget(c, 'weighted')).toEqual({ ok: true, value: c });
  });
});
