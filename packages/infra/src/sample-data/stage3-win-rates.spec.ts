import { moveLabel, resultValue } from '@maou/bench-domain';
import { playRandomGames } from './random-games';
import { hash64 } from './seeded-random';
import { buildStage3 } from './stage-builders';

// maou's pre-process defaults (intermediate_store.py, HEAD b40d091): smoothing (wins + 5) / (plays + 10) for
// positions seen at least twice, a neutral 0.5 for every played move of a position seen once.
const expectedRates = (hcpe: ReturnType<typeof playRandomGames>): Map<bigint, Map<number, number>> => {
  const byId = new Map<bigint, { count: number; plays: Map<number, number>; wins: Map<number, number> }>();
  for (let row = 0; row < hcpe.rows; row++) {
    const id = hash64(hcpe.hcp.subarray(row * 32, row * 32 + 32));
    const g = byId.get(id) ?? { count: 0, plays: new Map(), wins: new Map() };
    byId.set(id, g);
    const turn = (hcpe.hcp[row * 32]! & 1) as 0 | 1;
    const label = moveLabel(turn, hcpe.bestMove16[row]!);
    if (!label.ok) throw new Error(label.error);
    g.count++;
    g.plays.set(label.value, (g.plays.get(label.value) ?? 0) + 1);
    g.wins.set(label.value, (g.wins.get(label.value) ?? 0) + resultValue(turn, hcpe.gameResult[row]!));
  }
  const out = new Map<bigint, Map<number, number>>();
  for (const [id, g] of byId) {
    const rates = new Map<number, number>();
    for (const [label, plays] of g.plays)
      rates.set(label, g.count < 2 ? 0.5 : ((g.wins.get(label) ?? 0) + 5) / (plays + 10));
    out.set(id, rates);
  }
  return out;
};

describe('Stage 3 sample rows carry maou HEAD win rates (#25)', () => {
  it('given random games, then moveWinRate and bestMoveWinRate are what maou computes for every position', () => {
    const hcpe = playRandomGames({ seed: 11, uniquePositions: 300 });
    // Random games mostly end drawn (0.5 everywhere); give them decisive results so the rates tell wins from losses.
    // Black wins the even games, White the odd ones (ids are random-<seed>-<game>.hcpe_<ply>).
    hcpe.gameResult.forEach(
      (_, row) => (hcpe.gameResult[row] = 1 + (Number(/-(\d+)\.hcpe/.exec(hcpe.id[row]!)![1]) % 2)),
    );
    const { columns, ids } = buildStage3(hcpe, 300);
    const expected = expectedRates(hcpe);
    const { moveWinRate, bestMoveWinRate } = columns;
    if (!moveWinRate || !bestMoveWinRate) throw new Error('no win-rate columns');
    let smoothed = 0;
    for (let r = 0; r < columns.rows; r++) {
      const rates = expected.get(ids[r]!)!;
      const row = moveWinRate.subarray(r * 1496, (r + 1) * 1496);
      const played = [...row.keys()].filter((k) => row[k]! > 0);
      expect(played.sort((a, b) => a - b)).toEqual([...rates.keys()].sort((a, b) => a - b));
      for (const [label, rate] of rates) expect(row[label]).toBeCloseTo(rate, 6);
      expect(bestMoveWinRate[r]).toBeCloseTo(Math.max(...rates.values()), 6);
      if ([...rates.values()].some((v) => v !== 0.5)) smoothed++;
    }
    // The opening positions recur across games, so the smoothed branch is exercised, not only the fallback.
    expect(smoothed).toBeGreaterThan(0);
  });
});
