import { Position } from 'tsshogi';
import { loadVectors } from '@maou/bench-testkit/arrow';
import { legalMove16s } from './tsshogi-legal-moves';

describe('legal moves from tsshogi', () => {
  it.each(loadVectors().map((v, i) => [i, v] as const))('position %i: same move16 set as cshogi LegalAll', (_i, v) => {
    const pos = Position.newBySFEN(v.sfen);
    if (!pos) throw new Error(`bad sfen ${v.sfen}`);
    expect(legalMove16s(pos).sort((a, b) => a - b)).toEqual(v.legal.map((m) => m[1]).sort((a, b) => a - b));
  });
});
