import type { DataId, KernelBackend } from '@tensorflow/tfjs-core';

/** The WebGPUBackend internals the upload path touches (tfjs-backend-webgpu 4.22). */
interface UploadInternals {
  tensorMap: {
    get(
      id: DataId,
    ): { dtype: string; shape: number[]; values: ArrayLike<number> | null; resource: unknown } | undefined;
  };
  bufferManager: { acquireBuffer(size: number, usage: number): unknown };
  queue: { writeBuffer(buffer: unknown, offset: number, data: ArrayBufferView): void };
  uploadToGPU(id: DataId): void;
}

type BackendClass = new (device: unknown, adapterInfo?: unknown) => KernelBackend;

/**
 * Subclass of tfjs's WebGPUBackend whose host-to-device uploads reuse pooled buffers and
 * `queue.writeBuffer`. The stock path creates a new mapped staging buffer for every upload and ends
 * the compute pass for the copy; a training step uploads ~1,000 small values (every JS number used
 * in an op becomes a scalar tensor), and on an H100 those `createBuffer` calls cost more host time
 * than all the kernels of the step took on the GPU. A free pooled buffer is never referenced by
 * commands not yet submitted (tfjs defers releases to the next submit), so writing it from the
 * queue is ordered correctly; tfjs writes its uniforms the same way.
 * @public
 */
export function withPooledUploads(Base: BackendClass): BackendClass {
  return class PooledUploadBackend extends (Base as new (
    device: unknown,
    adapterInfo?: unknown,
  ) => KernelBackend & UploadInternals) {
    override uploadToGPU(dataId: DataId): void {
      const data = this.tensorMap.get(dataId);
      const plain = data?.dtype === 'float32' || data?.dtype === 'int32' || data?.dtype === 'bool';
      if (!data || data.resource != null || data.values == null || !plain) {
        super.uploadToGPU(dataId);
        return;
      }
      const values = data.dtype === 'float32' ? Float32Array.from(data.values) : Int32Array.from(data.values);
      if (values.length === 0) {
        super.uploadToGPU(dataId);
        return;
      }
      const usage = GPU_USAGE.STORAGE | GPU_USAGE.COPY_SRC | GPU_USAGE.COPY_DST;
      const buffer = this.bufferManager.acquireBuffer(values.byteLength, usage);
      this.queue.writeBuffer(buffer, 0, values);
      data.values = null;
      data.resource = buffer;
    }
  } as unknown as BackendClass;
}

/** WebGPU's GPUBufferUsage bits (fixed by the spec). */
const GPU_USAGE = { COPY_SRC: 0x0004, COPY_DST: 0x0008, STORAGE: 0x0080 } as const;
