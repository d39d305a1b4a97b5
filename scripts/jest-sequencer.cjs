// Test order for `pnpm test`: jest's own sequencer orders by the durations it cached on earlier runs, and a clean
// CI machine has none, so it would start by file size and could leave the slowest suite for last, with one core
// idle while it runs. Here the slowest suites (measured, listed below) start first, the rest follow by size.
// The lavapipe suites come in an order that lets Mesa's disk cache serve shaders already compiled: the planned
// step compiles lite's and resnet's first, the f16 and e2e runs (which reuse some of them) come later.
'use strict';
const fs = require('node:fs');

/**
 * Path endings, slowest first, by CPU seconds of each suite alone (`bash scripts/suite-cpu.sh <suites>`: one jest per
 * suite, user + sys with the programs it starts; the GPU ones after the planned-step spec filled the shader cache:
 * planned-step 123, mixed-precision 57, interrupt 53, batch-study 38, benchmark-training 34, maou-files 24, ...).
 * The interrupt e2e waits on its signals, so it starts early beside suites that keep the cores busy; the f16 spec
 * starts after three long CPU suites, when the planned-step spec has compiled the f32 shaders it shares.
 */
const FIRST = [
  'compute/src/backends/webgpu/planned/planned-step.spec.ts',
  'e2e/src/interrupt.e2e.ts',
  'library/src/batch-study.spec.ts',
  'e2e/src/benchmark-training.e2e.ts',
  'compute/src/backends/webgpu/planned/mixed-precision.spec.ts',
  'compute/src/backends/wasm/data-parallel/data-parallel-trainer.spec.ts',
  'compute/src/backends/webgpu/webgpu-training.spec.ts',
  'e2e/src/maou-files.e2e.ts',
  'infra/src/arrow/foreign-layouts.spec.ts',
  'e2e/src/html-report.e2e.ts',
  'compute/src/backends/wasm/kernels/simd/simd-fused-kernels.spec.ts',
  'e2e/src/shared-state.e2e.ts',
  'compute/src/backends/wasm/kernels/simd/simd-conv-module.spec.ts',
  'compute/src/backends/webgpu/conv2d-filter-grad.kernel.spec.ts',
  'compute/src/backends/webgpu/planned/conv-kernels.spec.ts',
  'compute/src/engine-gradients.spec.ts',
];
/** Path endings that run last (they reuse the shaders the planned-step spec compiles). */
const LAST = ['e2e/src/webgpu.e2e.ts'];

const rank = (path) => {
  const first = FIRST.findIndex((end) => path.endsWith(end));
  if (first >= 0) return first;
  return LAST.some((end) => path.endsWith(end)) ? FIRST.length + 2 : FIRST.length + 1;
};
const size = (path) => {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
};

class SlowestFirstSequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || size(b.path) - size(a.path));
  }

  allFailedTests(tests) {
    return tests;
  }

  cacheResults() {}
}

module.exports = SlowestFirstSequencer;
