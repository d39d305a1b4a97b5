import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// pnpm installs each package with only its own dependencies in reach, so the loader must resolve from its caller.
// Node's own resolution is what is tested, in a child process on the built package: jest resolves through its own
// module map, which reaches every workspace package's dependencies.
const HOST_DIST = join(__dirname, '..', '..', 'dist', 'index.js');
const COMPUTE_FILE = join(__dirname, '..', '..', '..', 'compute', 'dist', 'backends', 'optional-module.js');

const loadFrom = (from: string) =>
  spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(HOST_DIST)}).moduleLoaderFrom(process.argv[1])('@tensorflow/tfjs-backend-cpu')` +
        `.then((m) => console.log(typeof m.MathBackendCPU), (e) => console.log(e.code))`,
      from,
    ],
    // NODE_PATH off: pnpm's scripts set it to its hoisted store, which real installs do not have.
    { encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } },
  ).stdout.trim();

describe('moduleLoaderFrom (built package, plain node)', () => {
  it('given a file of the package that declares tfjs, then it loads tfjs, which the host package cannot reach', () => {
    expect({ fromCompute: loadFrom(COMPUTE_FILE), fromHost: loadFrom(HOST_DIST) }).toEqual({
      fromCompute: 'function',
      fromHost: 'MODULE_NOT_FOUND',
    });
  });
});
