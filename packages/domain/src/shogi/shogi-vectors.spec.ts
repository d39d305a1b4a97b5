import vectors from './testdata/maou-test-vectors.json';
import { decodeHcp, encodeHcp } from './hcp';
import { boardIdPositions, piecesInHand } from './features';
import { describeMoveLabel, labelToMove16, moveLabel } from './move-label';
import { move16ToUsi, usiToMove16 } from './move16';
import { parseSfen, toSfen } from './sfen';
import type { ShogiPosition } from './shogi-position';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const START_HCP = '58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c';

describe('shogi encodings against maou-test-vectors.json', () => {
  const cases = vectors.positions.map((p, i) => [i, p] as const);

  it.each(cases)('position %i: HCP decode matches the SFEN and encode reproduces the bytes', (_i, p) => {
    const fromSfen = unwrap(parseSfen(p.sfen));
    const decoded = unwrap(decodeHcp(Buffer.from(p.hcp_hex, 'hex')));
    expect(toSfen(decoded)).toBe(toSfen(fromSfen));
    expect(hex(unwrap(encodeHcp(fromSfen)))).toBe(p.hcp_hex);
  });

  it.each(cases)('position %i: board ids and hands from the mover’s side', (_i, p) => {
    const pos: ShogiPosition = unwrap(decodeHcp(Buffer.from(p.hcp_hex, 'hex')));
    expect(Array.from(boardIdPositions(pos))).toEqual(p.boardIdPositions.flat());
    expect(Array.from(piecesInHand(pos))).toEqual(p.piecesInHand);
  });

  it.each(cases)('position %i: every legal move has the vector move16 and label, and the label inverts', (_i, p) => {
    const pos = unwrap(parseSfen(p.sfen));
    const legal = p.legal.map(([usi]) => unwrap(usiToMove16(String(usi))));
    const labels = new Set<number>();
    for (const [usi, move16, label] of p.legal) {
      expect(unwrap(usiToMove16(String(usi)))).toBe(move16);
      expect(move16ToUsi(Number(move16))).toBe(usi);
      expect(unwrap(moveLabel(pos.turn, Number(move16)))).toBe(label);
      expect(unwrap(labelToMove16(Number(label), pos.turn, legal))).toBe(move16);
      const meaning = unwrap(describeMoveLabel(Number(label)));
      const to = Number(move16) & 0x7f;
      expect(meaning.to).toBe(pos.turn === 0 ? to : 80 - to);
      labels.add(Number(label));
    }
    expect(labels.size).toBe(p.legal.length);
  });
});

describe('documented examples (spec §2.2–§4.4)', () => {
  it('encodes the start position and labels the examples', () => {
    const start = unwrap(parseSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'));
    expect(hex(unwrap(encodeHcp(start)))).toBe(START_HCP);
    expect(unwrap(usiToMove16('7g7f'))).toBe(7739);
    expect(unwrap(moveLabel(0, 7739))).toBe(53);
    expect(unwrap(moveLabel(0, unwrap(usiToMove16('2g2f'))))).toBe(13);
    expect(unwrap(moveLabel(0, unwrap(usiToMove16('5i6h'))))).toBe(111);
    expect(unwrap(moveLabel(0, unwrap(usiToMove16('2h1h'))))).toBe(279);
    expect(unwrap(moveLabel(1, unwrap(usiToMove16('3c3d'))))).toBe(53);
    expect(unwrap(moveLabel(1, 10368))).toBe(1036);
    expect(unwrap(moveLabel(1, unwrap(usiToMove16('5f5g+'))))).toBe(638);
  });

  it('covers exactly 1,496 labels and rejects moves outside their category', () => {
    expect(unwrap(describeMoveLabel(1495)).category).toBe('DROP_HI');
    expect(describeMoveLabel(1496).ok).toBe(false);
    // A Black pawn drop on rank a is not a label (dead piece): maou raises IllegalMove.
    expect(moveLabel(0, unwrap(usiToMove16('P*5a'))).ok).toBe(false);
  });

  it('rejects corrupted HCP with the bit offset', () => {
    const bad = Buffer.from(START_HCP, 'hex');
    bad[31] = 0xff;
    const r = decodeHcp(bad);
    expect(r.ok).toBe(false);
    expect(decodeHcp(new Uint8Array(31)).ok).toBe(false);
  });
});
