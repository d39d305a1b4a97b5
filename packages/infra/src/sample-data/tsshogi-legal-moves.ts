import { Color, PieceType, type Position, Square, type ImmutablePosition } from 'tsshogi';
import { boardMove16, dropMove16 } from '@maou/bench-domain';

// tsshogi piece type → Apery piece type used by move16 drops.
const DROP_TYPE: Partial<Record<PieceType, number>> = {
  [PieceType.PAWN]: 1,
  [PieceType.LANCE]: 2,
  [PieceType.KNIGHT]: 3,
  [PieceType.SILVER]: 4,
  [PieceType.BISHOP]: 5,
  [PieceType.ROOK]: 6,
  [PieceType.GOLD]: 7,
};
const HAND_TYPES = Object.keys(DROP_TYPE) as PieceType[];
const SQUARES = Square.all;

/** cshogi square index of a tsshogi square. @internal */
export const cshogiSquare = (sq: Square): number => (sq.file - 1) * 9 + (sq.rank - 1);

/**
 * Every legal move (cshogi LegalAll semantics) as move16: board moves found through the attackers of each square,
 * both promotion options checked, then drops; tsshogi's isValidMove handles check, pins, nifu and pawn-drop mate.
 * @public
 */
export const legalMove16s = (pos: ImmutablePosition): number[] => {
  const out: number[] = [];
  const me = pos.color;
  for (const to of SQUARES) {
    const target = pos.board.at(to);
    if (target && target.color === me) continue;
    for (const from of pos.listAttackers(to)) {
      if (pos.board.at(from)?.color !== me) continue;
      const move = pos.createMove(from, to);
      if (!move) continue;
      if (pos.isValidMove(move)) out.push(boardMove16(cshogiSquare(from), cshogiSquare(to), false));
      const promoted = move.withPromote();
      if (pos.isValidMove(promoted)) out.push(boardMove16(cshogiSquare(from), cshogiSquare(to), true));
    }
    if (target) continue;
    const hand = pos.hand(me);
    for (const type of HAND_TYPES) {
      if (hand.count(type) === 0) continue;
      const drop = pos.createMove(type, to);
      if (drop && pos.isValidMove(drop)) out.push(dropMove16(DROP_TYPE[type] ?? 0, cshogiSquare(to)));
    }
  }
  return out;
};

/** Applies a move16 to a tsshogi position (true when it was legal and played). @internal */
export const playMove16 = (pos: Position, move16: number): boolean => {
  const toSq = move16 & 0x7f;
  const from = (move16 >> 7) & 0x7f;
  const to = new Square(Math.floor(toSq / 9) + 1, (toSq % 9) + 1);
  const source =
    from >= 81
      ? HAND_TYPES.find((t) => DROP_TYPE[t] === from - 80)
      : new Square(Math.floor(from / 9) + 1, (from % 9) + 1);
  if (!source) return false;
  const move = pos.createMove(source, to);
  if (!move) return false;
  return pos.doMove((move16 & 0x4000) !== 0 ? move.withPromote() : move, { ignoreValidation: true });
};

/** tsshogi colour → 0 Black / 1 White. @internal */
export const turnOf = (pos: ImmutablePosition): 0 | 1 => (pos.color === Color.BLACK ? 0 : 1);
