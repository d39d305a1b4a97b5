import type { KernelBackend, TensorInfo } from '@tensorflow/tfjs-core';

/** The helpers tfjs-backend-webgpu exports as `webgpu_util`. @public */
export interface WebgpuUtil {
  flatDispatchLayout(shape: number[]): { x: number[] };
  computeDispatch(
    layout: { x: number[] },
    shape: number[],
    workgroupSize: [number, number, number],
  ): [number, number, number];
}

/** tfjs-backend-webgpu's backend, as far as running one of our WGSL programs goes. @public */
export interface ProgramRunner {
  runWebGPUProgram(
    program: object,
    inputs: TensorInfo[],
    dtype: string,
    uniforms: { type: string; data: number[] }[],
  ): TensorInfo;
}

/** Geometry of one convolution, as the filter gradient needs it. @public */
export interface Im2ColGeometry {
  readonly outHeight: number;
  readonly outWidth: number;
  readonly filterHeight: number;
  readonly filterWidth: number;
  readonly strides: readonly [number, number];
  readonly pads: readonly [number, number];
}

/** One shader: x [B,H,W,C] → patches [B, outH·outW, kh·kw·C], zero outside the image (NHWC, no dilation). */
class FilterIm2ColProgram {
  readonly variableNames = ['x'];
  readonly uniforms = 'pads : vec2<i32>, strides : vec2<i32>, outWidth : i32, tapWidth : i32, inChannels : i32,';
  readonly workgroupSize: [number, number, number] = [64, 1, 1];
  readonly size = true;
  readonly shaderKey = 'maou_filter_im2col';
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: [number, number, number];

  constructor(
    readonly outputShape: number[],
    util: WebgpuUtil,
  ) {
    this.dispatchLayout = util.flatDispatchLayout(outputShape);
    this.dispatch = util.computeDispatch(this.dispatchLayout, outputShape, this.workgroupSize);
  }

  getUserCode(): string {
    return `
      fn main(index : i32) {
        if (index < uniforms.size) {
          let coords = getCoordsFromIndex(index);
          let tap = coords[2] / uniforms.inChannels;
          let ch = coords[2] % uniforms.inChannels;
          let xRow = (coords[1] / uniforms.outWidth) * uniforms.strides[0] - uniforms.pads[0] + tap / uniforms.tapWidth;
          let xCol = (coords[1] % uniforms.outWidth) * uniforms.strides[1] - uniforms.pads[1] + tap % uniforms.tapWidth;
          var value = 0.0;
          if (xRow >= 0 && xRow < uniforms.xShape[1] && xCol >= 0 && xCol < uniforms.xShape[2]) {
            value = getX(coords[0], xRow, xCol, ch);
          }
          setOutputAtIndex(index, value);
        }
      }`;
  }
}

/** Builds patches with one dispatch on a WebGPU backend. @public */
export type Im2Col = (backend: KernelBackend, x: TensorInfo, g: Im2ColGeometry) => TensorInfo;

/** An {@link Im2Col} for tfjs-backend-webgpu, given its `webgpu_util` export. @public */
export function webgpuIm2Col(util: WebgpuUtil): Im2Col {
  return (backend, x, g) => {
    const [batch, , , channels] = x.shape;
    const program = new FilterIm2ColProgram(
      [batch, g.outHeight * g.outWidth, g.filterHeight * g.filterWidth * channels],
      util,
    );
    return (backend as unknown as ProgramRunner).runWebGPUProgram(program, [x], x.dtype, [
      { type: 'int32', data: [...g.pads] },
      { type: 'int32', data: [...g.strides] },
      { type: 'int32', data: [g.outWidth] },
      { type: 'int32', data: [g.filterWidth] },
      { type: 'int32', data: [channels] },
    ]);
  };
}
