/** Expected failures of a dataloader benchmark. @public */
export interface BenchmarkDataloaderError {
  readonly kind:
    'backend-unavailable' | 'datasource' | 'too-few-batches' | 'network-too-large' | 'loader-failed' | 'interrupted';
  readonly message: string;
}
