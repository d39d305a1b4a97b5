import type { Stage, StageColumns } from '@maou/bench-domain';

/** Rows to write, identical for every format. @public */
export interface IoRecords {
  readonly columns: StageColumns;
  readonly ids: BigUint64Array;
  /** bytes of the rows in columnar memory (the MB/s basis) */
  readonly payloadBytes: number;
}

/** One on-disk format + compression the benchmark can write and read. @public */
export interface RecordFileFormat {
  readonly name: string;
  readonly compression: string;
  readonly suffix: string;
  /** writes and returns the file size in bytes */
  write(records: IoRecords, path: string): Promise<number>;
  /** reads the file fully into columns and returns its row count */
  read(path: string, stage: Stage): Promise<number>;
}

/** Formats, sample rows and scratch space for the I/O benchmark. @public */
export interface RecordIoPort {
  formats(): readonly RecordFileFormat[];
  sampleRecords(
    stage: Stage,
    rows: number,
    seed: number,
    onProgress: (done: number, total: number, phase: string) => void,
  ): Promise<IoRecords>;
  scratchDir(): Promise<string>;
  removeDir(dir: string): Promise<void>;
}
