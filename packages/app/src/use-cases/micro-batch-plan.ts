import { isResNetPreset } from '@maou/bench-domain';
import { heapSafeMicroBatch, type BackendInfo, type NetworkChoice } from '@maou/bench-engine';

/**
 * Rows per forward/backward pass for this backend (micro-batching when a replica's share of the batch would not fit
 * its heap), and a note for the report: with batch norm (the ResNet presets) each micro-batch is then normalised on its
 * own; the token backbones' layer norm is per row, so their step stays the whole batch's.
 * @public
 */
export function planMicroBatches(
  network: NetworkChoice,
  batchSize: number,
  backend: BackendInfo,
): { microBatchSize?: number; note?: string } {
  const micro = heapSafeMicroBatch(network, backend.heapLimitBytes);
  if (micro === undefined) return {};
  const perReplica = Math.ceil(batchSize / Math.max(1, backend.threads));
  if (perReplica <= micro) return { microBatchSize: micro };
  const gib = (backend.heapLimitBytes! / 2 ** 30).toFixed(0);
  return {
    microBatchSize: micro,
    note: `batch ${batchSize} is ${perReplica} rows per replica, more than fit a ${gib} GiB ${backend.name} heap: each replica runs micro-batches of ${micro} rows with their gradients summed ${isResNetPreset(network.preset) ? '(batch norm normalises each micro-batch)' : '(layer norm is per row: the same step as the whole batch)'}`,
  };
}
