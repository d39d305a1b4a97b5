#!/usr/bin/env node
// Packs scripts/bench-webgpu.ts and the sources it imports into a self-contained folder that runs with
// plain `node` (no build, no TypeScript): each file is transpiled with swc, workspace packages are
// mapped to their src, and the npm packages used are copied, large ones pruned to their Node entry.
// Usage: node scripts/pack-webgpu-bench.cjs <outDir> [entry.ts ...]   then   node <outDir>/scripts/bench-webgpu.js
//        node scripts/pack-webgpu-bench.cjs --gpu-machine <packDir>   (pnpm bench:gpu: what a GPU machine without
//        Node or network needs: the sources in <packDir>/bench, xz-compressed Node and Dawn binaries, the PyTorch
//        peer and the Vulkan loader's packages; run there by scripts/bench-gpu-remote.sh)
//        node scripts/pack-webgpu-bench.cjs --cuda-route <packDir>   (pnpm cuda:route: scripts/cuda-route-check.ts, koffi
//        with its linux-x64 binary and xz-compressed Node; run there by scripts/cuda-route-remote.sh)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { builtinModules } = require('node:module');
const swc = require('@swc/core');

const repo = path.resolve(__dirname, '..');
const gpuMachine = process.argv.includes('--gpu-machine');
const cudaRoute = process.argv.includes('--cuda-route');
const positional = process.argv.slice(2).filter((a) => a !== '--gpu-machine' && a !== '--cuda-route');
const packRoot = path.resolve(
  positional[0] ??
    path.join(repo, gpuMachine ? '.cache/gpu-bench' : cudaRoute ? '.cache/cuda-route' : '.cache/webgpu-bench'),
);
const out = gpuMachine || cudaRoute ? path.join(packRoot, 'bench') : packRoot;
const defaultEntries = cudaRoute
  ? ['scripts/cuda-route-check.ts']
  : ['scripts/bench-webgpu.ts', ...(gpuMachine ? ['scripts/bench-gpu.ts'] : [])];
const entries = (positional.length > 1 ? positional.slice(1) : defaultEntries).map((e) => path.resolve(repo, e));
const workspace = {
  '@maou/bench-domain': 'packages/domain/src/index.ts',
  '@maou/bench-engine': 'packages/engine/src/index.ts',
  '@maou/bench-use-cases': 'packages/app/src/index.ts',
  '@maou/bench-host': 'packages/host/src/index.ts',
  // the entries that hold only what the GPU bench runs (not the packages' whole entries)
  '@maou/bench-compute/webgpu': 'packages/compute/src/backends/webgpu/index.ts',
  '@maou/bench-compute/cuda': 'packages/compute/src/backends/cuda/index.ts',
  '@maou/bench-testkit/gradients': 'packages/testkit/src/gradients/index.ts',
};
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const done = new Set();
const packages = new Map(); // package root -> importing dir

const resolveTs = (from, spec) => {
  const base = path.resolve(path.dirname(from), spec);
  for (const f of [base, `${base}.ts`, path.join(base, 'index.ts')])
    if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
  throw new Error(`cannot resolve ${spec} from ${from}`);
};
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

function transpile(file) {
  if (done.has(file)) return;
  done.add(file);
  let code = swc.transformSync(fs.readFileSync(file, 'utf8'), {
    filename: file,
    sourceMaps: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
    module: { type: 'commonjs' },
  }).code;
  code = code.replace(/require\("([^"]+)"\)/g, (all, spec) => {
    if (builtins.has(spec)) return all;
    let target;
    if (spec.startsWith('.')) target = resolveTs(file, spec);
    else if (workspace[spec]) target = path.join(repo, workspace[spec]);
    else {
      packages.set(packageName(spec), path.dirname(file));
      return all;
    }
    transpile(target);
    let rel = path.relative(path.dirname(file), target).replace(/\.ts$/, '');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `require(${JSON.stringify(rel)})`;
  });
  const dest = path.join(out, path.relative(repo, file)).replace(/\.ts$/, '.js');
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, code);
}

const dirSize = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const p = path.join(dir, e.name);
    return n + (e.isDirectory() ? (e.name === 'node_modules' ? 0 : dirSize(p)) : fs.statSync(p).size);
  }, 0);

/** The folder of package `name` as Node finds it from `fromDir` (also for packages whose exports hide package.json). */
function packageRoot(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(dir) === dir) return null;
  }
}

function copyPackage(name, fromDir) {
  const dest = path.join(out, 'node_modules', name);
  if (fs.existsSync(dest)) return;
  // scripts/ has no node_modules of its own: its packages come from the workspace packages that depend on them
  const root = [fromDir, ...['infra', 'app', 'cli'].map((p) => path.join(repo, 'packages', p))]
    .map((d) => packageRoot(name, d))
    .find(Boolean);
  if (!root) return; // optional (e.g. node-fetch's `encoding`): not installed, not needed
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  fs.mkdirSync(dest, { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dest, 'package.json'));
  let files;
  if (name === 'webgpu') files = ['index.js', `dist/${process.platform}-${process.arch}/dawn.node`];
  else if (dirSize(root) < 3e6)
    files = null; // small: all of it
  else files = [pkg.main ?? 'index.js'];
  if (files === null)
    fs.cpSync(root, dest, {
      recursive: true,
      filter: (s) => !path.relative(root, s).split(path.sep).includes('node_modules'),
    });
  else
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
      fs.copyFileSync(path.join(root, f), path.join(dest, f));
    }
  // Follow the bare requires of what was copied, resolved from the package's own location.
  for (const f of files ?? [pkg.main ?? 'index.js']) {
    const p = path.join(root, f);
    if (!p.endsWith('.js') || !fs.existsSync(p)) continue;
    for (const m of fs.readFileSync(p, 'utf8').matchAll(/require\(['"]([^'".][^'"]*)['"]\)/g)) {
      if (!builtins.has(m[1])) copyPackage(packageName(m[1]), root);
    }
  }
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (!packageRoot(dep, root)) continue;
    if (dep !== '@webgpu/types' && !dep.startsWith('@types/')) copyPackage(dep, root);
  }
}

fs.rmSync(out, { recursive: true, force: true });
entries.forEach(transpile);
for (const [name, from] of packages) copyPackage(name, from);
// The plug-in loads the backend package by name at run time.
if (!cudaRoute) {
  copyPackage('@tensorflow/tfjs-backend-webgpu', path.join(repo, 'packages/compute/src'));
  copyPackage('webgpu', path.join(repo, 'packages/compute/src'));
}
if (cudaRoute) {
  // The cuda backend loads koffi with createRequire when it starts, which the require scan above does not see; koffi
  // finds its native binary in an optional package beside it (not a `dependency`, so not followed either).
  copyPackage('koffi', path.join(repo, 'packages/compute/src'));
  copyPackage(
    `@koromix/koffi-${process.platform}-${process.arch}`,
    packageRoot('koffi', path.join(repo, 'packages/compute')),
  );
}
console.error(
  `packed ${done.size} sources and ${fs.readdirSync(path.join(out, 'node_modules')).length} top-level packages into ${out} (${(dirSize(out) / 1e6).toFixed(1)} MB)`,
);
if (gpuMachine) packForGpuMachine();
if (cudaRoute) packForCudaRoute();

/** `src` xz-compressed to `dest`, unless `dest` was made from the same content (sha256) before. */
function xzCached(src, dest) {
  const stamp = require('node:crypto').createHash('sha256').update(fs.readFileSync(src)).digest('hex');
  if (fs.existsSync(dest) && fs.existsSync(`${dest}.stamp`) && fs.readFileSync(`${dest}.stamp`, 'utf8') === stamp)
    return;
  console.error(`xz ${src} (about a minute per 100 MB on 2 cores)`);
  fs.writeFileSync(dest, execFileSync('xz', ['-T0', '-6', '-c', src], { maxBuffer: 1 << 30 }));
  fs.writeFileSync(`${dest}.stamp`, stamp);
}

function packForGpuMachine() {
  const dawn = path.join(out, 'node_modules/webgpu/dist/linux-x64/dawn.node');
  if (!fs.existsSync(dawn)) throw new Error(`--gpu-machine: ${dawn} missing (the npm package webgpu is not installed)`);
  xzCached(dawn, path.join(packRoot, 'dawn.node.xz'));
  fs.rmSync(dawn);
  xzCached(process.execPath, path.join(packRoot, 'node.xz'));
  const peer = ['shared', '../shared', '../../shared']
    .map((d) => path.join(repo, d, 'peer/torch_peer.py'))
    .find((f) => fs.existsSync(f));
  if (!peer) throw new Error('--gpu-machine: shared/peer/torch_peer.py not found beside the repository');
  fs.mkdirSync(path.join(packRoot, 'peer'), { recursive: true });
  fs.copyFileSync(peer, path.join(packRoot, 'peer/torch_peer.py'));
  // The Vulkan loader and libglvnd (NVIDIA's Vulkan driver needs libGLdispatch), for images that lack them.
  const gl = path.join(packRoot, 'gl');
  if (!fs.existsSync(gl) || !fs.readdirSync(gl).some((f) => f.endsWith('.deb'))) {
    fs.mkdirSync(gl, { recursive: true });
    const lists = fs.mkdtempSync('/tmp/gpu-bench-apt-');
    fs.mkdirSync(path.join(lists, 'partial'));
    const o = ['-oAPT::Architecture=amd64', '-oAPT::Architectures=amd64', `-oDir::State::Lists=${lists}`];
    try {
      execFileSync('apt-get', [...o, 'update'], { stdio: 'ignore' });
      execFileSync('apt-get', [...o, 'download', 'libvulkan1', 'libglvnd0', 'libglx0', 'libegl1', 'libgl1'], {
        cwd: gl,
        stdio: 'inherit',
      });
    } catch (e) {
      throw new Error(`--gpu-machine: apt-get could not download the Vulkan loader packages into ${gl}: ${e.message}`);
    }
  }
  finishPack();
}

/** What the CUDA route check needs on a GPU machine without Node: Node, xz-compressed (koffi is in the pack). */
function packForCudaRoute() {
  const koffiNode = path.join(out, 'node_modules/@koromix', `koffi-${process.platform}-${process.arch}`);
  if (!fs.existsSync(koffiNode)) throw new Error(`--cuda-route: ${koffiNode} missing (koffi's prebuilt binary)`);
  xzCached(process.execPath, path.join(packRoot, 'node.xz'));
  finishPack();
}

/** pack.json (commit, time, Node) and the size check: the device tool carries 64 MiB with the tree. */
function finishPack() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: repo, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: the pack still runs
  }
  fs.writeFileSync(
    path.join(packRoot, 'pack.json'),
    JSON.stringify({ commit, packedAt: new Date().toISOString(), node: process.version }, null, 2),
  );
  const total = dirSize(packRoot) + dirSize(path.join(out, 'node_modules'));
  const mib = total / 2 ** 20;
  if (mib > 60)
    throw new Error(`${packRoot} holds ${mib.toFixed(1)} MiB; the device tool carries 64 MiB with the tree`);
  console.error(`${packRoot}: ${mib.toFixed(1)} MiB to carry (commit ${commit})`);
}
