import { isResNetPreset } from '@maou/bench-domain';
import { heapSafeMicroBatch, networkMemoryRefusal } from '@maou/bench-engine';
import type { BackendInfo, NetworkChoice } from '@maou/bench-engine/contracts';
import { StepFailure } from './step-failure';

const heapOf = (backend: BackendInfo): string =>
  `${backend.name} heap of each ${(backend.replicas ?? backend.threads) > 1 ? 'replica' : 'instance'}`;

/**
 * Refuses, before any work, a network this backend cannot train at all (training-memory's estimate: a tensor past a
 * typed array, or weights, gradients, optimiser state and one row past the heap), naming the flags and the figures.
 * @public
 */
export function checkNetworkFits(network: NetworkChoice, backend: BackendInfo): void {
  const refusal = networkMemoryRefusal(network, backend.heapLimitBytes, heapOf(backend));
  if (refusal !== null) throw new StepFailure({ kind: 'network-too-large', message: refusal });
}

/**
 * A WebAssembly trap during training ("memory access out of bounds": a kernel wrote past the heap, which tfjs does
 * not check when it runs out) explained by its likely cause, with this run's figures; any other error as it is.
 * @public
 */
export function explainHeapTrap(
  error: unknown,
  network: NetworkChoice,
  batchSize: number,
  backend: BackendInfo,
): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!/memory access out of bounds/.test(message) || backend.heapLimitBytes === undefined) return error;
  const rows = planMicroBatches(network, batchSize, backend).microBatchSize ?? batchSize;
  const explained = `${message}: the ${heapOf(backend)} (${(backend.heapLimitBytes / 2 ** 30).toFixed(1)} GiB) most likely ran out, training ${rows} row(s) at a time of --batch-size ${batchSize}; lower --batch-size, give more --threads (each replica takes a share of the batch), or a smaller network`;
  return error instanceof StepFailure
    ? new StepFailure({ ...error.error, message: explained })
    : new StepFailure({ kind: 'training-failed', message: explained });
}

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
  checkNetworkFits(network, backend);
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
