import { type CudaLibrarySet } from '../discover-cuda';
import { driverCheck } from '../cuda-driver';
import { openLibrary } from '../library-versions';
import { type ConvLayer } from './conv-layers';
import { bind, CUDNN, CUDNN_API, DRIVER_API } from './native-api';

/** fp32 with TF32 off (PyTorch's `allow_tf32 = False`), TF32 (PyTorch's convolution default), fp16 (AMP). @public */
export type RoutePrecision = 'fp32' | 'tf32' | 'fp16';
/** @public */
export type ConvPass = 'forward' | 'data grad' | 'filter grad';

/** One timed pass: the median of `runs` CUDA-event timings, after cuDNN's find chose the algorithm. @public */
export interface ConvTiming {
  readonly ms: number;
  readonly algo: number;
  /** cuDNN's math type of the chosen algorithm (1: tensor cores) */
  readonly mathType: number;
  readonly workspaceBytes: number;
}

type Fn = (...args: unknown[]) => unknown;
const ALGOS = 16;
/** CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: this thread may not make unsafe calls (allocations) while capturing. */
const CAPTURE_THREAD_LOCAL = 1;

/**
 * cuDNN's three convolution passes on one GPU, timed with CUDA events on one stream: NHWC tensors and KRSC filters
 * (the engine's layout), cross-correlation, the algorithm chosen by cuDNN's find (what `torch.backends.cudnn.benchmark`
 * does), its workspace allocated once and grown.
 * @public
 */
export class CudnnConvTimer {
  private readonly cu: Record<keyof typeof DRIVER_API, Fn>;
  private readonly dnn: Record<keyof typeof CUDNN_API, Fn>;
  private readonly handle: unknown;
  private readonly stream: unknown;
  private readonly events: [unknown, unknown];
  private workspace: { ptr: unknown; bytes: number } = { ptr: null, bytes: 0 };

  constructor(
    private readonly libs: CudaLibrarySet,
    device: number,
  ) {
    this.cu = bind(libs.driver.path, DRIVER_API);
    this.dnn = bind(libs.cudnn.path, CUDNN_API);
    const ctx = [null];
    this.drv('cuDevicePrimaryCtxRetain', this.cu.primaryContext(ctx, device));
    this.drv('cuCtxSetCurrent', this.cu.setContext(ctx[0]));
    const stream = [null];
    this.drv('cuStreamCreate', this.cu.createStream(stream, 0));
    this.stream = stream[0];
    const handle = [null];
    this.dnnCheck('cudnnCreate', this.dnn.create(handle));
    this.handle = handle[0];
    this.dnnCheck('cudnnSetStream', this.dnn.setStream(this.handle, this.stream));
    const [a, b] = [[null], [null]];
    this.drv('cuEventCreate', this.cu.createEvent(a, 0));
    this.drv('cuEventCreate', this.cu.createEvent(b, 0));
    this.events = [a[0], b[0]];
  }

  private drv(what: string, status: unknown): void {
    driverCheck(openLibrary(this.libs.driver.path), what, status as number);
  }

  private dnnCheck(what: string, status: unknown): void {
    if (status !== 0) throw new Error(`${what} failed: ${this.dnn.errorString(status) as string}`);
  }

  private alloc(elements: number, half: boolean): unknown {
    const ptr = [null];
    this.drv('cuMemAlloc', this.cu.alloc(ptr, elements * (half ? 2 : 4)));
    // 0.01 in each format: finite values with a normal exponent, so no path is a zero shortcut
    if (half) this.drv('cuMemsetD16', this.cu.fill16(ptr[0], 0x211f, elements));
    else this.drv('cuMemsetD32', this.cu.fill32(ptr[0], 0x3c23d70a, elements));
    return ptr[0];
  }

  private ensureWorkspace(bytes: number): void {
    if (bytes <= this.workspace.bytes) return;
    if (this.workspace.ptr) this.drv('cuMemFree', this.cu.free(this.workspace.ptr));
    const ptr = [null];
    this.drv('cuMemAlloc', this.cu.alloc(ptr, bytes));
    this.workspace = { ptr: ptr[0], bytes };
  }

  private descriptors(c: ConvLayer, precision: RoutePrecision) {
    const type = precision === 'fp16' ? CUDNN.half : CUDNN.float;
    const make = (create: Fn, what: string) => {
      const d = [null];
      this.dnnCheck(what, create(d));
      return d[0];
    };
    const x = make(this.dnn.createTensor, 'cudnnCreateTensorDescriptor');
    this.dnnCheck('cudnnSetTensor4dDescriptor', this.dnn.setTensor(x, CUDNN.nhwc, type, c.batch, c.cin, c.h, c.h));
    const y = make(this.dnn.createTensor, 'cudnnCreateTensorDescriptor');
    this.dnnCheck('cudnnSetTensor4dDescriptor', this.dnn.setTensor(y, CUDNN.nhwc, type, c.batch, c.cout, c.oh, c.oh));
    const w = make(this.dnn.createFilter, 'cudnnCreateFilterDescriptor');
    this.dnnCheck('cudnnSetFilter4dDescriptor', this.dnn.setFilter(w, type, CUDNN.nhwc, c.cout, c.cin, c.k, c.k));
    const conv = make(this.dnn.createConv, 'cudnnCreateConvolutionDescriptor');
    // accumulation in f32 at every precision, as PyTorch does for fp16 convolutions
    this.dnnCheck(
      'cudnnSetConvolution2dDescriptor',
      this.dnn.setConv(conv, c.pad, c.pad, c.stride, c.stride, 1, 1, CUDNN.crossCorrelation, CUDNN.float),
    );
    const math = { fp32: CUDNN.fmaMath, tf32: CUDNN.defaultMath, fp16: CUDNN.tensorOpMath }[precision];
    this.dnnCheck('cudnnSetConvolutionMathType', this.dnn.setMath(conv, math));
    return { x, y, w, conv };
  }

  /** Descriptors, buffers and cuDNN's chosen algorithm for one pass; `run` enqueues it on the stream. */
  private prepare(c: ConvLayer, precision: RoutePrecision, pass: ConvPass) {
    const half = precision === 'fp16';
    const d = this.descriptors(c, precision);
    const x = this.alloc(c.batch * c.h * c.h * c.cin, half);
    const y = this.alloc(c.batch * c.oh * c.oh * c.cout, half);
    const w = this.alloc(c.cout * c.k * c.k * c.cin, half);
    const [alpha, beta] = [new Float32Array([1]), new Float32Array([0])];
    const perf = Array.from({ length: ALGOS }, () => ({}));
    const returned = [0];
    const find = { forward: this.dnn.findForward, 'data grad': this.dnn.findData, 'filter grad': this.dnn.findFilter }[
      pass
    ];
    const findArgs = {
      forward: [d.x, d.w, d.conv, d.y],
      'data grad': [d.w, d.y, d.conv, d.x],
      'filter grad': [d.x, d.y, d.conv, d.w],
    }[pass];
    this.dnnCheck(`cudnnFind (${pass})`, find(this.handle, ...findArgs, ALGOS, returned, perf));
    const best = (perf as { algo: number; status: number; memory: number | bigint; mathType: number }[])
      .slice(0, returned[0])
      .find((p) => p.status === 0);
    if (!best) throw new Error(`cuDNN found no algorithm for the ${pass} of ${JSON.stringify(c)} at ${precision}`);
    const bytes = Number(best.memory);
    const run = () => {
      const ws = this.workspace.ptr;
      const status =
        pass === 'forward'
          ? this.dnn.forward(this.handle, alpha, d.x, x, d.w, w, d.conv, best.algo, ws, bytes, beta, d.y, y)
          : pass === 'data grad'
            ? this.dnn.data(this.handle, alpha, d.w, w, d.y, y, d.conv, best.algo, ws, bytes, beta, d.x, x)
            : this.dnn.filter(this.handle, alpha, d.x, x, d.y, y, d.conv, best.algo, ws, bytes, beta, d.w, w);
      this.dnnCheck(`cudnnConvolution (${pass})`, status);
    };
    const free = () => [x, y, w].forEach((p) => this.drv('cuMemFree', this.cu.free(p)));
    return { run, free, algo: best.algo, mathType: best.mathType, bytes };
  }

  /** Medians of `runs` event-timed executions of `enqueue` on the stream, after `warmup` untimed ones. */
  private median(enqueue: () => void, runs: number, warmup: number): number {
    for (let i = 0; i < warmup; i++) enqueue();
    const times: number[] = [];
    const [start, end] = this.events;
    for (let i = 0; i < runs; i++) {
      this.drv('cuEventRecord', this.cu.record(start, this.stream));
      enqueue();
      this.drv('cuEventRecord', this.cu.record(end, this.stream));
      this.drv('cuEventSynchronize', this.cu.waitEvent(end));
      const ms = [0];
      this.drv('cuEventElapsedTime', this.cu.elapsed(ms, start, end));
      times.push(ms[0]!);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  }

  /** Times `pass` of convolution `c` at `precision`: cuDNN's find, `warmup` untimed runs, then `runs` timed ones. */
  time(c: ConvLayer, precision: RoutePrecision, pass: ConvPass, runs = 10, warmup = 3): ConvTiming {
    const p = this.prepare(c, precision, pass);
    try {
      this.ensureWorkspace(p.bytes);
      return { ms: this.median(p.run, runs, warmup), algo: p.algo, mathType: p.mathType, workspaceBytes: p.bytes };
    } finally {
      p.free();
    }
  }

  /**
   * The three passes of every layer in `shapes` (each shape as often as the network has it), enqueued one by one
   * from Node (eager) and captured once into a CUDA Graph and replayed: whether cuDNN's legacy calls capture, and
   * what the host costs a step when they do not.
   */
  graphReplay(shapes: readonly (ConvLayer & { layers: readonly string[] })[], precision: RoutePrecision, runs = 5) {
    const prepared = shapes.flatMap((c) =>
      (['forward', 'data grad', 'filter grad'] as const).map((pass) => ({
        p: this.prepare(c, precision, pass),
        n: c.layers.length,
      })),
    );
    try {
      this.ensureWorkspace(Math.max(0, ...prepared.map((q) => q.p.bytes)));
      const all = () => prepared.forEach((q) => Array.from({ length: q.n }, q.p.run));
      const calls = prepared.reduce((s, q) => s + q.n, 0);
      const eagerMs = this.median(all, runs, 1);
      this.drv('cuStreamBeginCapture', this.cu.beginCapture(this.stream, CAPTURE_THREAD_LOCAL));
      const graph = [null];
      try {
        all();
      } finally {
        this.drv('cuStreamEndCapture', this.cu.endCapture(this.stream, graph));
      }
      const exec = [null];
      this.drv('cuGraphInstantiate', this.cu.instantiate(exec, graph[0], 0));
      const replayMs = this.median(() => this.drv('cuGraphLaunch', this.cu.launch(exec[0], this.stream)), runs, 1);
      return { calls, eagerMs, replayMs };
    } finally {
      prepared.forEach((q) => q.p.free());
    }
  }
}
