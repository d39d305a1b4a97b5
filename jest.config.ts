/**
 * Loaded by ts-node as CommonJS on every Node: Node 22.18+ would load this file natively as an ES module first, where
 * __dirname is undefined.
 * @jest-config-loader ts-node
 */
import { join } from 'node:path';
import type { Config } from 'jest';

// TypeScript through @swc/jest and tfjs's bundles as they are, both with the intrinsics bound once per module: under
// jest's vm context every lookup of a global in a kernel's loop was slow (scripts/jest-bind-globals.cjs).
const BIND_GLOBALS = join(__dirname, 'scripts/jest-bind-globals.cjs');
const swc = [
  BIND_GLOBALS,
  {
    swc: {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  },
];
const transform = { '^.+\\.ts$': swc as never, '/node_modules/@tensorflow/tfjs-[^/]+/dist/.+\\.js$': BIND_GLOBALS };
// Everything else in node_modules loads untransformed.
const transformIgnorePatterns = ['^(?!.*/node_modules/@tensorflow/tfjs-[^/]+/dist/).*/node_modules/'];
// `toEqual` compares typed arrays in a loop, with jest's verdict (scripts/jest-typed-arrays.cjs).
const setupFilesAfterEnv = [join(__dirname, 'scripts/jest-typed-arrays.cjs')];

// lavapipe compiles each WGSL pipeline with LLVM for its native vector width (AVX2: 8 lanes); at 4 lanes a cold
// compile takes a third of the CPU time (lite's planned step: 102 -> 35 s) and a step runs as fast. The WebGPU specs
// check what the kernels compute, which the lane count does not change. Set here, in the real environment, so jest's
// workers and the binaries the e2e specs start inherit it; an explicit setting wins.
process.env.LP_NATIVE_VECTOR_WIDTH ??= '128';

// Tests run against sources: each workspace name maps to its src entry.
const moduleNameMapper = {
  '^@maou/bench-use-cases/testing$': '<rootDir>/../app/src/testing/index.ts',
  '^@maou/bench-use-cases$': '<rootDir>/../app/src/index.ts',
  '^@maou/bench-app/(testing|commands)$': '<rootDir>/../library/src/$1/index.ts',
  '^@maou/bench-app$': '<rootDir>/../library/src/index.ts',
  '^@maou/bench-engine/contracts$': '<rootDir>/../engine/src/contracts.ts',
  '^@maou/bench-testkit/([a-z]+)$': '<rootDir>/../testkit/src/$1/index.ts',
  '^@maou/bench-(domain|engine|interface|host|infra|compute)$': '<rootDir>/../$1/src/index.ts',
};

const project = (name: string, extra: Partial<Config> = {}): Config => ({
  displayName: name,
  rootDir: `packages/${name}`,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform,
  transformIgnorePatterns,
  setupFilesAfterEnv,
  moduleNameMapper,
  testEnvironment: 'node',
  ...extra,
});

const config: Config = {
  // Generous (a global option: jest ignores it per project): CI boxes are small and shared; speed is measured by bench
  // scripts, never by a test's clock.
  testTimeout: 60_000,
  // One worker per core (jest's default leaves one idle: a single worker on the 2-core CI machine), slowest suites
  // first (scripts/jest-sequencer.cjs), so the long lavapipe suites overlap the rest.
  maxWorkers: '100%',
  testSequencer: '<rootDir>/scripts/jest-sequencer.cjs',
  projects: [
    project('domain'),
    project('engine'),
    project('app'),
    project('interface'),
    project('host'),
    project('infra'),
    project('compute'),
    project('library'),
    project('cli'),
    // Checks on the repository's own rules (layers).
    {
      displayName: 'repo',
      rootDir: 'scripts/checks',
      testMatch: ['<rootDir>/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
      setupFilesAfterEnv,
      testEnvironment: 'node',
    },
    // End-to-end tests drive the built `maou` binary only.
    project('e2e', { testMatch: ['<rootDir>/src/**/*.e2e.ts'], setupFiles: ['<rootDir>/src/plain-node-env.ts'] }),
  ],
};

export default config;
