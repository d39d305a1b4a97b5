import { koffi, openLibrary, type NativeLibrary } from '../library-versions';

// The C declarations the route check calls, as koffi reads them. Handles, descriptors, streams, events and device
// pointers are `void *` (CUdeviceptr is 64 bits, a pointer's size on the 64-bit Linux this runs on); every call returns
// its library's status (0: success).

/** The CUDA driver calls: context, stream, memory, events, graph capture and replay. @public */
export const DRIVER_API = {
  primaryContext: 'int cuDevicePrimaryCtxRetain(_Out_ void **ctx, int device)',
  setContext: 'int cuCtxSetCurrent(void *ctx)',
  createStream: 'int cuStreamCreate(_Out_ void **stream, unsigned int flags)',
  synchronize: 'int cuStreamSynchronize(void *stream)',
  alloc: 'int cuMemAlloc_v2(_Out_ void **dptr, size_t bytes)',
  free: 'int cuMemFree_v2(void *dptr)',
  fill32: 'int cuMemsetD32_v2(void *dptr, unsigned int value, size_t count)',
  fill16: 'int cuMemsetD16_v2(void *dptr, unsigned short value, size_t count)',
  createEvent: 'int cuEventCreate(_Out_ void **event, unsigned int flags)',
  record: 'int cuEventRecord(void *event, void *stream)',
  waitEvent: 'int cuEventSynchronize(void *event)',
  elapsed: 'int cuEventElapsedTime(_Out_ float *ms, void *start, void *end)',
  beginCapture: 'int cuStreamBeginCapture_v2(void *stream, int mode)',
  endCapture: 'int cuStreamEndCapture(void *stream, _Out_ void **graph)',
  instantiate: 'int cuGraphInstantiateWithFlags(_Out_ void **exec, void *graph, unsigned long long flags)',
  launch: 'int cuGraphLaunch(void *exec, void *stream)',
} as const;

/** cuDNN's legacy convolution calls (kept in cuDNN 9 beside the graph API). @public */
export const CUDNN_API = {
  create: 'int cudnnCreate(_Out_ void **handle)',
  setStream: 'int cudnnSetStream(void *handle, void *stream)',
  errorString: 'const char *cudnnGetErrorString(int status)',
  createTensor: 'int cudnnCreateTensorDescriptor(_Out_ void **desc)',
  setTensor: 'int cudnnSetTensor4dDescriptor(void *desc, int format, int dataType, int n, int c, int h, int w)',
  createFilter: 'int cudnnCreateFilterDescriptor(_Out_ void **desc)',
  setFilter: 'int cudnnSetFilter4dDescriptor(void *desc, int dataType, int format, int k, int c, int h, int w)',
  createConv: 'int cudnnCreateConvolutionDescriptor(_Out_ void **desc)',
  setConv:
    'int cudnnSetConvolution2dDescriptor(void *desc, int padH, int padW, int u, int v, int dilationH, int dilationW, int mode, int computeType)',
  setMath: 'int cudnnSetConvolutionMathType(void *desc, int mathType)',
  findForward:
    'int cudnnFindConvolutionForwardAlgorithm(void *handle, void *xDesc, void *wDesc, void *convDesc, void *yDesc, int requested, _Out_ int *returned, _Out_ AlgoPerf *results)',
  findData:
    'int cudnnFindConvolutionBackwardDataAlgorithm(void *handle, void *wDesc, void *dyDesc, void *convDesc, void *dxDesc, int requested, _Out_ int *returned, _Out_ AlgoPerf *results)',
  findFilter:
    'int cudnnFindConvolutionBackwardFilterAlgorithm(void *handle, void *xDesc, void *dyDesc, void *convDesc, void *dwDesc, int requested, _Out_ int *returned, _Out_ AlgoPerf *results)',
  forward:
    'int cudnnConvolutionForward(void *handle, const float *alpha, void *xDesc, void *x, void *wDesc, void *w, void *convDesc, int algo, void *workspace, size_t workspaceBytes, const float *beta, void *yDesc, void *y)',
  data: 'int cudnnConvolutionBackwardData(void *handle, const float *alpha, void *wDesc, void *w, void *dyDesc, void *dy, void *convDesc, int algo, void *workspace, size_t workspaceBytes, const float *beta, void *dxDesc, void *dx)',
  filter:
    'int cudnnConvolutionBackwardFilter(void *handle, const float *alpha, void *xDesc, void *x, void *dyDesc, void *dy, void *convDesc, int algo, void *workspace, size_t workspaceBytes, const float *beta, void *dwDesc, void *dw)',
} as const;

/** cuDNN's enum values (cudnn_graph.h) that the route check uses. @public */
export const CUDNN = {
  float: 0,
  half: 2,
  nhwc: 1,
  crossCorrelation: 1,
  defaultMath: 0,
  tensorOpMath: 1,
  fmaMath: 3,
} as const;

let declaredTypes = false;
/** cudnnConvolution*AlgoPerf_t: the three passes' structs have the same layout. */
function declareTypes(): void {
  if (declaredTypes) return;
  koffi().struct('AlgoPerf', {
    algo: 'int',
    status: 'int',
    time: 'float',
    memory: 'size_t',
    determinism: 'int',
    mathType: 'int',
    reserved: koffi().array('int', 3),
  });
  declaredTypes = true;
}

/** Functions by the names of `api`, bound from the library at `file`. @public */
export function bind<K extends string>(
  file: string,
  api: Readonly<Record<K, string>>,
): Record<K, (...args: unknown[]) => unknown> {
  declareTypes();
  const lib: NativeLibrary = openLibrary(file);
  const bound: Record<string, (...args: unknown[]) => unknown> = {};
  for (const [k, proto] of Object.entries<string>(api)) bound[k] = lib.func(proto);
  return bound as Record<K, (...args: unknown[]) => unknown>;
}

/** Parses every declaration without a library (what CI can check): throws on a type koffi does not know. @public */
export function parseDeclarations(): number {
  declareTypes();
  const all = [...Object.values(DRIVER_API), ...Object.values(CUDNN_API)];
  for (const proto of all) koffi().proto(proto);
  return all.length;
}
