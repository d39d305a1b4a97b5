import type { Interruption } from '@maou/bench-domain';

/** Where a run failed; each carries the underlying message (which names the file, flag or tensor). @public */
export type BenchmarkTrainingError =
  | { readonly kind: 'backend-unavailable'; readonly message: string }
  | { readonly kind: 'datasource'; readonly message: string }
  | { readonly kind: 'calibration-failed'; readonly message: string }
  | { readonly kind: 'too-few-batches'; readonly message: string }
  | { readonly kind: 'network-too-large'; readonly message: string }
  | { readonly kind: 'training-failed'; readonly message: string }
  | { readonly kind: 'interrupted'; readonly message: string; readonly interruption: Interruption };
