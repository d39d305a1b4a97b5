import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The consumer test refuses a tarball that ships test-only files (scripts/consumer/tarball-contents.cjs). Here the
// check runs on real tarballs written by tar, laid out as `pnpm pack` writes them (package/...), with and without
// the files infra shipped before the testkit existed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { assertNoTestOnlyFiles } = require('../consumer/tarball-contents.cjs') as {
  assertNoTestOnlyFiles: (tarball: string) => number;
};

const dir = mkdtempSync(join(tmpdir(), 'maou-tarball-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MANIFEST = {
  name: '@maou/example',
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './testing': { types: './dist/testing/index.d.ts', default: './dist/testing/index.js' },
  },
};
const pack = (name: string, files: readonly string[]): string => {
  const root = join(dir, name);
  for (const f of ['package.json', ...files]) {
    mkdirSync(dirname(join(root, 'package', f)), { recursive: true });
    writeFileSync(join(root, 'package', f), f === 'package.json' ? JSON.stringify(MANIFEST) : '//\n');
  }
  const tarball = join(dir, `${name}.tgz`);
  execFileSync('tar', ['-czf', tarball, '-C', root, 'package']);
  return tarball;
};
const SHIPPED = [
  'dist/index.js',
  'dist/index.d.ts',
  'dist/sources/s3/s3.source.js',
  'src/backends/wasm/native/conv-kernels.cc',
];

describe('tarball contents check', () => {
  it('passes a tarball of production files and a test-support entry its exports declare', () => {
    const tarball = pack('clean', [...SHIPPED, 'dist/testing/index.js', 'dist/testing/fake-clock.d.ts']);
    expect(assertNoTestOnlyFiles(tarball)).toBe(7);
  });

  it.each([
    'dist/sources/testing/fake-gcs-server.js',
    'dist/fuzz-testing/fuzz-runner.js',
    'dist/report/html/html-report.fixtures.js',
    'dist/report/html/headless-chromium.testing.d.ts',
    'dist/sources/s3rver-harness.js',
    'dist/arrow/feather-io.spec.js',
    'fixtures/stage3.lz4.feather',
  ])('refuses a tarball that ships %s, naming it', (file) => {
    const tarball = pack(file.replace(/[^a-z0-9]+/g, '-'), [...SHIPPED, file]);
    expect(() => assertNoTestOnlyFiles(tarball)).toThrow(
      `ships test-only files (move them to packages/testkit):\n  ${file}`,
    );
  });

  it('refuses a tarball that ships source maps (they point at src/, which no tarball ships), counting them', () => {
    const tarball = pack('maps', [...SHIPPED, 'dist/index.js.map', 'dist/index.d.ts.map']);
    expect(() => assertNoTestOnlyFiles(tarball)).toThrow('ships 2 source maps without their sources');
  });
});
