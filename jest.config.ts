import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// Tests run against sources: each workspace name maps to its src entry.
const moduleNameMapper = {
  '^@maou/bench-app/testing$': '<rootDir>/../app/src/testing/index.ts',
  '^@maou/bench-testkit/([a-z]+)$': '<rootDir>/../testkit/src/$1/index.ts',
  '^@maou/bench-(domain|engine|app|interface|host|infra|compute)$': '<rootDir>/../$1/src/index.ts',
};

const project = (name: string, extra: Partial<Config> = {}): Config => ({
  displayName: name,
  rootDir: `packages/${name}`,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  transform: { '^.+\\.ts$': swc as never },
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
    project('cli'),
    // Checks on the repository's own rules (layers).
    {
      displayName: 'repo',
      rootDir: 'scripts/checks',
      testMatch: ['<rootDir>/**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc as never },
      testEnvironment: 'node',
    },
    // End-to-end tests drive the built `maou` binary only.
    project('e2e', { testMatch: ['<rootDir>/src/**/*.e2e.ts'], setupFiles: ['<rootDir>/src/plain-node-env.ts'] }),
  ],
};

export default config;
