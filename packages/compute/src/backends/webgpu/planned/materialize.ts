import {
  type BindGroupEntry,
  type GpuBindGroup,
  type GpuBuffer,
  type GpuCommandEncoder,
  type GpuComputePipeline,
  type GpuDevice,
  USAGE,
} from './gpu-types';
import { type StepDescription } from './step-description';
import { type Dispatch, UNIFORM_SLOT } from './wgsl';

/** Buffers that outlive one batch size: parameters, gradients, optimiser state, running statistics. */
export const SHARED_BUFFERS: ReadonlySet<string> = new Set([
  'P',
  'G',
  'M',
  'V',
  'D',
  'R',
  'hyper',
  'normParts',
  'scale',
]);

interface Encoded {
  readonly pipeline: GpuComputePipeline;
  readonly group: GpuBindGroup;
  readonly workgroups: readonly [number, number, number];
  readonly label: string;
}

/**
 * A step description turned into GPU objects once: its buffers, one pipeline per distinct shader (shared by all
 * plans through `pipelines`), one bind group per dispatch. `encode` records the whole step into one compute pass.
 * @public
 */
export class MaterializedStep {
  readonly buffers = new Map<string, GpuBuffer>();
  private readonly encoded: Encoded[] = [];
  private uniforms: GpuBuffer | undefined;

  private constructor(readonly description: StepDescription) {}

  static async create(
    device: GpuDevice,
    description: StepDescription,
    shared: Map<string, GpuBuffer>,
    pipelines: Map<string, GpuComputePipeline>,
  ): Promise<MaterializedStep> {
    const step = new MaterializedStep(description);
    device.pushErrorScope('validation');
    device.pushErrorScope('out-of-memory');
    for (const [name, floats] of description.buffers) {
      let b = SHARED_BUFFERS.has(name) ? shared.get(name) : undefined;
      if (!b) {
        b = device.createBuffer({
          size: Math.max(16, Math.ceil((floats * (description.halfBuffers.has(name) ? 2 : 4)) / 16) * 16),
          usage: USAGE.STORAGE | USAGE.COPY_DST | USAGE.COPY_SRC,
          label: name,
        });
        if (SHARED_BUFFERS.has(name)) shared.set(name, b);
      }
      step.buffers.set(name, b);
    }
    const uniforms = uniformBuffer(device, description.dispatches);
    description.dispatches.forEach((d, i) => {
      let pipeline = pipelines.get(d.code);
      if (!pipeline) {
        pipeline = device.createComputePipeline({
          layout: 'auto',
          compute: { module: device.createShaderModule({ code: d.code, label: d.label }), entryPoint: 'main' },
          label: d.label,
        });
        pipelines.set(d.code, pipeline);
      }
      const entries: BindGroupEntry[] = d.bindings.map((b, binding) => {
        const buffer = step.buffers.get(b.buffer);
        if (!buffer) throw new Error(`planned step: dispatch '${d.label}' binds unknown buffer '${b.buffer}'`);
        return { binding, resource: { buffer } };
      });
      if (uniforms && d.uniforms.length)
        entries.push({
          binding: d.bindings.length,
          resource: { buffer: uniforms, offset: i * UNIFORM_SLOT, size: UNIFORM_SLOT },
        });
      step.encoded.push({
        pipeline,
        group: device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries }),
        workgroups: d.workgroups,
        label: d.label,
      });
    });
    step.uniforms = uniforms;
    const oom = await device.popErrorScope();
    const invalid = await device.popErrorScope();
    if (oom) throw new Error(`planned webgpu step (batch ${description.batch}): out of GPU memory: ${oom.message}`);
    if (invalid) throw new Error(`planned webgpu step (batch ${description.batch}): ${invalid.message}`);
    return step;
  }

  /** Dispatches one step records. */
  get dispatchCount(): number {
    return this.encoded.length;
  }

  /** Records every dispatch into one compute pass; `timestamps` brackets each one (profiling). */
  encode(encoder: GpuCommandEncoder, timestamps?: { set: unknown; first: number }): void {
    if (!timestamps) {
      const pass = encoder.beginComputePass();
      for (const e of this.encoded) {
        pass.setPipeline(e.pipeline);
        pass.setBindGroup(0, e.group);
        pass.dispatchWorkgroups(...e.workgroups);
      }
      pass.end();
      return;
    }
    // Timestamps are written at pass boundaries (WebGPU's timestampWrites), so profiling runs one pass per dispatch.
    this.encoded.forEach((e, i) => {
      const pass = encoder.beginComputePass({
        timestampWrites: {
          querySet: timestamps.set,
          beginningOfPassWriteIndex: timestamps.first + 2 * i,
          endOfPassWriteIndex: timestamps.first + 2 * i + 1,
        },
      });
      pass.setPipeline(e.pipeline);
      pass.setBindGroup(0, e.group);
      pass.dispatchWorkgroups(...e.workgroups);
      pass.end();
    });
  }

  /** Bytes of this plan's own buffers (activations and their gradients). */
  ownBytes(): number {
    let n = 0;
    for (const [name, b] of this.buffers) if (!SHARED_BUFFERS.has(name)) n += b.size;
    return n;
  }

  labels(): string[] {
    return this.encoded.map((e) => e.label);
  }

  /** Frees this plan's own buffers (the shared ones stay). */
  dispose(): void {
    for (const [name, b] of this.buffers) if (!SHARED_BUFFERS.has(name)) b.destroy();
    this.uniforms?.destroy();
  }
}

/** One uniform buffer for the plan: dispatch i's fields of `u` at i·UNIFORM_SLOT, written once at set-up. */
function uniformBuffer(device: GpuDevice, dispatches: readonly Dispatch[]): GpuBuffer | undefined {
  if (!dispatches.some((d) => d.uniforms.length)) return undefined;
  const bytes = new ArrayBuffer(dispatches.length * UNIFORM_SLOT);
  const view = new DataView(bytes);
  dispatches.forEach((d, i) =>
    d.uniforms.forEach((u, j) => {
      const at = i * UNIFORM_SLOT + 4 * j;
      if (u.type === 'i32') view.setInt32(at, u.value, true);
      else view.setFloat32(at, u.value, true);
    }),
  );
  const buffer = device.createBuffer({
    size: bytes.byteLength,
    usage: USAGE.UNIFORM | USAGE.COPY_DST,
    label: 'shapes',
  });
  device.queue.writeBuffer(buffer, 0, new Uint8Array(bytes));
  return buffer;
}
