// What a packed package may not ship: test-only files (harnesses, fake servers, fixtures, specs) belong to the
// private @maou/bench-testkit or next to their specs, never in a published tarball. A test-support entry a package
// declares in its `exports` (like @maou/bench-use-cases/testing, the doubles a service's own tests use) is public API and
// allowed; a stray one is not.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const TEST_ONLY = [
  /(^|\/)(testing|fuzz-testing|testdata|fixtures|__tests__|__mocks__)\//,
  /\.(spec|test|e2e|fixtures|testing)\.(d\.)?[cm]?[jt]s(\.map)?$/,
  /(^|\/)(fake|mock)-[^/]*$/,
  /-harness\.[^/]*$/,
  /(^|\/)[^/]*test-helpers?\.[^/]*$/,
];

/** Test-support folders (relative to the package root, with a trailing slash) the package's `exports` declares. */
const declaredDirs = (manifest) => {
  const targets = [];
  const walk = (v) => {
    if (typeof v === 'string') targets.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(manifest.exports ?? {});
  return targets.map((t) => `${path.posix.dirname(path.posix.normalize(t))}/`).filter((d) => TEST_ONLY[0].test(d));
};

/** The entries of a tarball `pnpm pack` wrote, relative to its package root. */
const tarballFiles = (tarball) =>
  execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.endsWith('/'))
    .map((f) => f.replace(/^package\//, ''));

/** The test-only files in a packed package, declared test-support entries excepted. */
const testOnlyFiles = (files, manifest) => {
  const allowed = declaredDirs(manifest);
  return files.filter((f) => TEST_ONLY.some((re) => re.test(f)) && !allowed.some((d) => f.startsWith(d)));
};

/**
 * Source maps the tarball would ship: they name `../src/*.ts`, which no tarball ships, so a debugger or a stack trace
 * would point at files the consumer does not have. The packages' `files` leave them out.
 */
const sourceMaps = (files) => files.filter((f) => f.endsWith('.map'));

/** Throws, naming each file, when a tarball ships test-only files or source maps. */
const assertNoTestOnlyFiles = (tarball) => {
  const files = tarballFiles(tarball);
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  const found = testOnlyFiles(files, manifest);
  if (found.length > 0)
    throw new Error(
      `${path.basename(tarball)} ships test-only files (move them to packages/testkit):\n  ${found.join('\n  ')}`,
    );
  const maps = sourceMaps(files);
  if (maps.length > 0)
    throw new Error(
      `${path.basename(tarball)} ships ${maps.length} source maps without their sources (add "!dist/**/*.map" to files), such as ${maps[0]}`,
    );
  return files.length;
};

module.exports = { assertNoTestOnlyFiles, sourceMaps, testOnlyFiles, tarballFiles };
