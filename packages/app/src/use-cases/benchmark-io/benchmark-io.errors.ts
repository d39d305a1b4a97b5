/** Expected failures of the I/O benchmark. @public */
export interface BenchmarkIoError {
  readonly kind: 'unknown-format' | 'io-failed' | 'row-mismatch';
  readonly message: string;
}
