import type { CyclePlan, EvalResult, StepResult, TrainerOptions } from '@maou/bench-engine/contracts';
import type { HostBatch, PhaseKernels } from '@maou/bench-domain';
import type { WasmKernelSet } from '../kernels/register-wasm-kernels';
import type { CpuKernelChoice } from '../native/native-kernels';

/** What a replica worker starts with. @internal */
export interface ReplicaInit {
  readonly options: TrainerOptions;
  readonly replica: number;
  readonly replicas: number;
  readonly kernels: WasmKernelSet;
  /** The convolution kernels the main thread chose (an ISA or wasm, never auto), so that every replica runs them. */
  readonly cpuKernels: CpuKernelChoice;
}

/** Main thread → replica. Requests carry an id that the answer repeats. @internal */
export type ToReplica =
  | { readonly type: 'exchange'; readonly buffer: SharedArrayBuffer }
  | {
      readonly type: 'step';
      readonly id: number;
      readonly shard: HostBatch;
      readonly rowsInBatch: number;
      readonly profileBatch: number | null;
      /** the next accumulation cycle, when the main thread's trainer was given one since the last step */
      readonly plan?: CyclePlan;
    }
  | { readonly type: 'evaluate'; readonly id: number; readonly shard: HostBatch }
  | { readonly type: 'reduce-go' };

/** A replica's failure, enough to rebuild the error on the main thread. @internal */
export interface ReplicaFailure {
  readonly name: string;
  readonly message: string;
  readonly batchIndex?: number;
  readonly tensorName?: string;
}

/** Replica → main thread. @internal */
export type FromReplica =
  | {
      readonly type: 'ready';
      readonly parameterCount: number;
      readonly trainableParameterCount: number;
      readonly multiplyAddsPerSample: number;
      readonly exchangeFloats: number;
      readonly learningRate: number;
    }
  | { readonly type: 'reduce-ready' }
  | {
      readonly type: 'stepped';
      readonly id: number;
      readonly result: StepResult;
      readonly learningRate: number;
      readonly phases: PhaseKernels[] | null;
      /** a profiled step's peak tensor bytes on this replica */
      readonly peakBytes?: number;
    }
  | { readonly type: 'evaluated'; readonly id: number; readonly result: EvalResult }
  | { readonly type: 'failed'; readonly id: number | null; readonly failure: ReplicaFailure };
