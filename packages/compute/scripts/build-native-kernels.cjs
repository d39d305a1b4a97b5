#!/usr/bin/env node
// Compiles the native convolution kernels (src/backends/wasm/native/*.cc of this package) into a Node-API addon,
// native-build/maou-kernels.node, and records the outcome in native-build/status.json.
// This package's own `install` script, so it runs wherever @maou/bench-compute is installed: the workspace, or a
// consumer's npm/pnpm install of the tarball. It never fails the install: where there is no C++ compiler, no Node
// headers or no x86-64 CPU, it says so, writes the reason, and the engine runs the WebAssembly kernels instead (the
// report's notes name which kernels ran and why). Why not node-gyp: adr/0010-library-packages.md.
//
//   node scripts/build-native-kernels.cjs [--strict] [--out DIR]
//   (--strict: exit 1 when the addon cannot be built; --out: build elsewhere, as the specs do)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');
const src = path.join(pkg, 'src/backends/wasm/native');
const at = process.argv.indexOf('--out');
const outDir = at > 0 ? path.resolve(process.argv[at + 1]) : path.join(pkg, 'native-build');
const addon = path.join(outDir, 'maou-kernels.node');
const strict = process.argv.includes('--strict');

/** Node's own headers: npm's nodedir setting, or the include directory next to this node binary. */
function nodeHeaders() {
  const candidates = [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), '..')].filter(
    Boolean,
  );
  for (const dir of candidates) {
    const include = path.join(dir, 'include', 'node');
    if (fs.existsSync(path.join(include, 'node_api.h'))) return include;
  }
  throw new Error(
    `no Node-API headers (node_api.h) under ${candidates.map((d) => path.join(d, 'include/node')).join(' or ')}; install the Node.js headers or set npm's nodedir`,
  );
}

function compilerName(cxx) {
  try {
    return execFileSync(cxx, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
  } catch {
    throw new Error(`no C++ compiler: \`${cxx} --version\` failed (install g++, or set CXX)`);
  }
}

function build() {
  if (process.arch !== 'x64')
    throw new Error(`the native kernels are x86-64 only (AVX2/AVX-512); this is ${process.arch}`);
  const include = nodeHeaders();
  const cxx = process.env.CXX || 'g++';
  const compiler = compilerName(cxx);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maou-kernels-'));
  try {
    // -ffp-contract=fast: a*b+c becomes one FMA. No -march=native: the addon must run on any x86-64 CPU, and
    // picks the AVX-512 or AVX2 objects at load time from what the CPU reports.
    const common = [
      '-std=c++17',
      '-O3',
      '-fPIC',
      '-fno-exceptions',
      '-ffp-contract=fast',
      '-Wall',
      '-Wextra',
      `-I${include}`,
    ];
    const objects = [
      ['conv-kernels.cc', 'avx512.o', ['-DMAOU_AVX512', '-mavx512f', '-mavx512vl', '-mavx2', '-mfma']],
      ['conv-kernels.cc', 'avx2.o', ['-mavx2', '-mfma']],
      ['addon.cc', 'addon.o', []],
    ].map(([file, obj, flags]) => {
      const o = path.join(tmp, obj);
      execFileSync(cxx, [...common, ...flags, '-c', path.join(src, file), '-o', o], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      return o;
    });
    const link = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
    fs.mkdirSync(outDir, { recursive: true });
    const staged = path.join(tmp, 'maou-kernels.node');
    execFileSync(cxx, ['-shared', ...link, '-o', staged, ...objects], { stdio: ['ignore', 'inherit', 'inherit'] });
    fs.copyFileSync(staged, addon);
    return compiler;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function writeStatus(status) {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'status.json'), `${JSON.stringify(status, null, 2)}\n`);
}

try {
  fs.rmSync(addon, { force: true });
  const compiler = build();
  writeStatus({ built: true, compiler, at: new Date().toISOString() });
  console.log(`build-native-kernels: built ${addon} with ${compiler}`);
} catch (e) {
  const reason = String(e instanceof Error ? e.message : e).split('\n')[0];
  writeStatus({ built: false, reason, at: new Date().toISOString() });
  console.warn(
    `build-native-kernels: native kernels not built (${reason}); training on wasm will use the WebAssembly SIMD kernels`,
  );
  if (strict) process.exit(1);
}
