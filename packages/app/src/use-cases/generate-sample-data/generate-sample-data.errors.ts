/** Expected failures of sample-data generation. @public */
export interface GenerateSampleDataError {
  readonly kind: 'write-failed';
  readonly message: string;
}
