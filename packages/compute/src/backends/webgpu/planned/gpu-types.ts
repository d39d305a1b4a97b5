// The few WebGPU objects the planned step uses, typed structurally (Dawn's Node binding provides them at run time;
// a dependency on @webgpu/types would declare them globally for the whole package).

/** @public */
export interface GpuBuffer {
  readonly size: number;
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

/** @public */
export interface GpuBindGroup {
  readonly label?: string;
}
/** @public */
export interface GpuComputePipeline {
  getBindGroupLayout(index: number): unknown;
}

/** @public */
export interface GpuComputePass {
  setPipeline(p: GpuComputePipeline): void;
  setBindGroup(index: number, g: GpuBindGroup): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

/** @public */
export interface GpuCommandEncoder {
  beginComputePass(descriptor?: unknown): GpuComputePass;
  copyBufferToBuffer(src: GpuBuffer, srcOffset: number, dst: GpuBuffer, dstOffset: number, size: number): void;
  resolveQuerySet(set: unknown, first: number, count: number, dst: GpuBuffer, offset: number): void;
  finish(): unknown;
}

/** A buffer binding: the whole buffer, or `size` bytes from `offset`. @public */
export interface BindGroupEntry {
  readonly binding: number;
  readonly resource: { readonly buffer: GpuBuffer; readonly offset?: number; readonly size?: number };
}

/** @public */
export interface GpuDevice {
  readonly features: ReadonlySet<string>;
  readonly limits: Readonly<Record<string, number>>;
  readonly queue: {
    submit(buffers: unknown[]): void;
    writeBuffer(buffer: GpuBuffer, offset: number, data: ArrayBufferView): void;
    onSubmittedWorkDone(): Promise<void>;
  };
  createBuffer(d: { size: number; usage: number; mappedAtCreation?: boolean; label?: string }): GpuBuffer;
  createShaderModule(d: { code: string; label?: string }): unknown;
  createComputePipeline(d: {
    layout: 'auto';
    compute: { module: unknown; entryPoint: string };
    label?: string;
  }): GpuComputePipeline;
  createBindGroup(d: { layout: unknown; entries: BindGroupEntry[] }): GpuBindGroup;
  createCommandEncoder(): GpuCommandEncoder;
  createQuerySet(d: { type: 'timestamp'; count: number }): { destroy(): void };
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope(): Promise<{ message: string } | null>;
}

/** GPUBufferUsage / GPUMapMode values (WebGPU spec), so no global needs to exist at import time. @public */
export const USAGE = {
  MAP_READ: 0x1,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  QUERY_RESOLVE: 0x200,
} as const;
/** @public */
export const MAP_READ = 0x1;
