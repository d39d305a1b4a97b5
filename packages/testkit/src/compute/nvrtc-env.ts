import fs from 'node:fs';
import path from 'node:path';

/** Folder scripts/setup-nvrtc.sh fills (override: MAOU_NVRTC_DIR). */
const nvrtcDir = (): string => process.env.MAOU_NVRTC_DIR ?? path.resolve(__dirname, '../../../../.cache/nvrtc');

/**
 * For specs: the NVRTC libraries scripts/setup-nvrtc.sh unpacked from pip's `nvidia-cuda-nvrtc` wheel. Once the
 * script has completed (or with MAOU_REQUIRE_NVRTC=1), a missing library is a failure, not a skip, so CI cannot pass
 * without compiling the cuda backend's kernels.
 * @public
 */
export function useNvrtc(): {
  readonly available: boolean;
  readonly required: boolean;
  readonly reason: string;
  /** the folder holding libnvrtc.so.N */
  readonly libDir: string;
  /** libnvrtc.so.N in it, or '' */
  readonly library: string;
  /** the wheel it came from (.complete), or '' */
  readonly wheel: string;
} {
  const dir = nvrtcDir();
  const libDir = path.join(dir, 'lib');
  const complete = path.join(dir, '.complete');
  const required = process.env.MAOU_REQUIRE_NVRTC === '1' || fs.existsSync(complete);
  const wheel = fs.existsSync(complete) ? fs.readFileSync(complete, 'utf8').trim() : '';
  const name = fs.existsSync(libDir) ? fs.readdirSync(libDir).find((f) => /^libnvrtc\.so\.\d+$/.test(f)) : undefined;
  const reason = name ? '' : `no libnvrtc.so.N in ${libDir}; run scripts/setup-nvrtc.sh`;
  return {
    available: reason === '' || required,
    required,
    reason,
    libDir,
    library: name ? path.join(libDir, name) : '',
    wheel,
  };
}
