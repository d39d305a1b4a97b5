import { openLibrary, readLibraryVersion } from './library-versions';

/** What NVRTC made of one program. @public */
export interface PtxResult {
  readonly ptx: string;
  /** NVRTC's log (warnings), empty when quiet */
  readonly log: string;
}

/**
 * Compiles CUDA C to PTX with the NVRTC at `library` (no GPU needed). `architecture` is a virtual one such as
 * `compute_90`. A failed compilation throws with NVRTC's log, which names the program and line.
 * @public
 */
export function compileToPtx(library: string, name: string, source: string, architecture: string): PtxResult {
  readLibraryVersion('nvrtc', library); // loads libnvrtc-builtins beside it first
  const lib = openLibrary(library);
  const create = lib.func(
    'int nvrtcCreateProgram(_Out_ void **prog, const char *src, const char *name, int n, const char **h, const char **i)',
  );
  const compile = lib.func('int nvrtcCompileProgram(void *prog, int n, const char **options)');
  const text = (sizeOf: string, get: string, program: unknown): string => {
    const size = [0];
    lib.func(`int ${sizeOf}(void *prog, _Out_ size_t *size)`)(program, size);
    const buffer = Buffer.alloc(Number(size[0]));
    lib.func(`int ${get}(void *prog, _Out_ uint8_t *out)`)(program, buffer);
    return buffer.toString('utf8').replace(/\0+$/, '');
  };
  const program = [null as unknown];
  const created = create(program, source, name, 0, null, null) as number;
  if (created !== 0) throw new Error(`nvrtcCreateProgram(${name}) returned ${created}`);
  try {
    const options = [`--gpu-architecture=${architecture}`, '-std=c++17'];
    const status = compile(program[0], options.length, options) as number;
    const log = text('nvrtcGetProgramLogSize', 'nvrtcGetProgramLog', program[0]);
    if (status !== 0) {
      const error = lib.func('const char *nvrtcGetErrorString(int status)')(status) as string;
      throw new Error(`NVRTC could not compile ${name} for ${architecture} (${error}):\n${log}`);
    }
    return { ptx: text('nvrtcGetPTXSize', 'nvrtcGetPTX', program[0]), log };
  } finally {
    lib.func('int nvrtcDestroyProgram(_Inout_ void **prog)')(program);
  }
}
