/**
 * HCPE records (maou's game-record rows, spec §2.1) in columnar memory.
 * @public
 */
export interface HcpeColumns {
  readonly rows: number;
  /** rows × 32 bytes */
  readonly hcp: Uint8Array;
  readonly eval: Int16Array;
  readonly bestMove16: Int16Array;
  /** 0 draw, 1 Black won, 2 White won */
  readonly gameResult: Int8Array;
  readonly id: readonly string[];
  /** days since 1970-01-01 */
  readonly partitioningKey: Int32Array;
  /** rows × 2: [Black, White] */
  readonly ratings: Uint16Array;
  readonly endgameStatus: readonly string[];
  readonly moves: Int16Array;
}
