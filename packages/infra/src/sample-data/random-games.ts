import { InitialPositionType, Position } from 'tsshogi';
import { GAME_RESULT, encodeHcp, parseSfen, type HcpeColumns } from '@maou/bench-domain';
import { seededRandom } from './seeded-random';
import { legalMove16s, playMove16, turnOf } from './tsshogi-legal-moves';

/** Reports work done so far; `phase` names the step (games, records, writing). @public */
export type ProgressCallback = (done: number, total: number, phase: string) => void;

/** @public */
export interface RandomGamesOptions {
  readonly seed: number;
  /** stop after the game in which this many distinct positions have been seen */
  readonly uniquePositions: number;
  /** a game reaching this many plies is a draw */
  readonly maxPly?: number;
  readonly onProgress?: ProgressCallback;
}

interface Row {
  hcp: Uint8Array;
  move16: number;
  turn: 0 | 1;
  game: number;
}

const hcpOf = (pos: Position): Uint8Array => {
  const parsed = parseSfen(pos.sfen);
  if (!parsed.ok) throw new Error(`tsshogi produced an unparsable SFEN: ${parsed.error}`);
  const hcp = encodeHcp(parsed.value);
  if (!hcp.ok) throw new Error(`cannot encode a legal position: ${hcp.error}`);
  return hcp.value;
};

/** Plays one uniform-random legal game; returns its rows and the game result (cshogi codes). */
const playGame = (game: number, random: () => number, maxPly: number, rows: Row[], seen: Set<string>): number => {
  const pos = new Position();
  pos.reset(InitialPositionType.STANDARD);
  for (let ply = 0; ply < maxPly; ply++) {
    const legal = legalMove16s(pos);
    // No legal move: the side to move is mated and loses.
    if (legal.length === 0) return turnOf(pos) === 0 ? GAME_RESULT.WHITE_WIN : GAME_RESULT.BLACK_WIN;
    const move16 = legal[Math.floor(random() * legal.length)] ?? 0;
    const hcp = hcpOf(pos);
    rows.push({ hcp, move16, turn: turnOf(pos), game });
    seen.add(Buffer.from(hcp).toString('latin1'));
    if (!playMove16(pos, move16)) throw new Error(`tsshogi rejected its own legal move ${move16}`);
  }
  return GAME_RESULT.DRAW;
};

/** Random legal self-play games turned into maou HCPE rows (one row per position before a move). @public */
export const playRandomGames = (options: RandomGamesOptions): HcpeColumns => {
  const random = seededRandom(options.seed);
  const rows: Row[] = [];
  const results: number[] = [];
  const plies: number[] = [];
  const seen = new Set<string>();
  for (let game = 0; seen.size < options.uniquePositions; game++) {
    const before = rows.length;
    results.push(playGame(game, random, options.maxPly ?? 256, rows, seen));
    plies.push(rows.length - before);
    options.onProgress?.(Math.min(seen.size, options.uniquePositions), options.uniquePositions, 'games');
  }
  const n = rows.length;
  const cols = {
    rows: n,
    hcp: new Uint8Array(n * 32),
    eval: new Int16Array(n),
    bestMove16: new Int16Array(n),
    gameResult: new Int8Array(n),
    id: [] as string[],
    partitioningKey: new Int32Array(n),
    ratings: new Uint16Array(n * 2),
    endgameStatus: [] as string[],
    moves: new Int16Array(n),
  };
  const statusOf = (r: number): string => (r === GAME_RESULT.DRAW ? '%JISHOGI' : '%TSUMI');
  let ply = 0;
  rows.forEach((row, i) => {
    ply = i > 0 && rows[i - 1]?.game === row.game ? ply + 1 : 0;
    cols.hcp.set(row.hcp, i * 32);
    cols.bestMove16[i] = row.move16;
    cols.gameResult[i] = results[row.game] ?? 0;
    cols.id.push(`random-${options.seed}-${row.game}.hcpe_${ply}`);
    cols.partitioningKey[i] = 19723; // 2024-01-01: random games have no start time
    cols.ratings.set([1500, 1500], i * 2);
    cols.endgameStatus.push(statusOf(results[row.game] ?? 0));
    cols.moves[i] = plies[row.game] ?? 0;
  });
  return cols;
};
