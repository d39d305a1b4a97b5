import { openLibrary, type NativeLibrary } from './library-versions';

/** The GPU `--gpu cuda:N` names, as the driver describes it. @public */
export interface CudaDevice {
  readonly index: number;
  readonly name: string;
  /** e.g. `9.0` (Hopper) */
  readonly computeCapability: string;
  readonly memoryBytes: number;
  /** how many GPUs the driver sees */
  readonly count: number;
}

// CUdevice_attribute values from cuda.h.
const COMPUTE_CAPABILITY_MAJOR = 75;
const COMPUTE_CAPABILITY_MINOR = 76;

/** Throws `what: CUDA_ERROR_…` for a failed driver call. @public */
export function driverCheck(lib: NativeLibrary, what: string, status: number): void {
  if (status === 0) return;
  const name = [''];
  lib.func('int cuGetErrorName(int error, _Out_ const char **name)')(status, name);
  throw new Error(`${what} failed: ${name[0] || `CUresult ${status}`}`);
}

/**
 * Initialises the driver and describes GPU `index`: the first call that needs a GPU, so a machine with a driver
 * but no usable GPU (none visible, a wrong index) stops here with the driver's own error name.
 * @public
 */
export function openCudaDevice(driverPath: string, index: number): CudaDevice {
  const lib = openLibrary(driverPath);
  driverCheck(lib, 'cuInit', lib.func('int cuInit(unsigned int flags)')(0) as number);
  const count = [0];
  driverCheck(lib, 'cuDeviceGetCount', lib.func('int cuDeviceGetCount(_Out_ int *count)')(count) as number);
  if (index >= count[0]!)
    throw new Error(`--gpu cuda:${index}: the driver sees ${count[0]} GPU(s) (cuda:0 to cuda:${count[0]! - 1})`);
  const device = [0];
  driverCheck(lib, 'cuDeviceGet', lib.func('int cuDeviceGet(_Out_ int *device, int ordinal)')(device, index) as number);
  const nameBuffer = Buffer.alloc(256);
  driverCheck(
    lib,
    'cuDeviceGetName',
    lib.func('int cuDeviceGetName(_Out_ uint8_t *name, int len, int device)')(nameBuffer, 256, device[0]) as number,
  );
  const attribute = lib.func('int cuDeviceGetAttribute(_Out_ int *value, int attribute, int device)');
  const [major, minor] = [COMPUTE_CAPABILITY_MAJOR, COMPUTE_CAPABILITY_MINOR].map((a) => {
    const v = [0];
    driverCheck(lib, 'cuDeviceGetAttribute', attribute(v, a, device[0]) as number);
    return v[0]!;
  });
  const bytes = [0];
  driverCheck(
    lib,
    'cuDeviceTotalMem',
    lib.func('int cuDeviceTotalMem_v2(_Out_ size_t *bytes, int device)')(bytes, device[0]) as number,
  );
  return {
    index,
    name: nameBuffer.toString('utf8', 0, nameBuffer.indexOf(0)),
    computeCapability: `${major}.${minor}`,
    memoryBytes: Number(bytes[0]),
    count: count[0]!,
  };
}
