import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerInit } from './worker-protocol';

// When this module runs from TypeScript sources (jest with swc), there is no compiled `loader-worker.js`: the worker
// then starts from this small CommonJS bootstrap, which compiles `.ts` files with @swc/core (a root dev dependency)
// and maps @maou/bench-* to their sources. Built code never takes this path.
const SOURCE_BOOTSTRAP = `
const fs = require('node:fs'), path = require('node:path'), Module = require('node:module');
const { workerData } = require('node:worker_threads');
const swc = require(path.join(workerData.repoRoot, 'node_modules/@swc/core'));
require.extensions['.ts'] = (m, file) => m._compile(swc.transformSync(fs.readFileSync(file, 'utf8'), {
  filename: file, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, file);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@maou\\/bench-(domain|app|infra)$/.exec(request);
  return m ? path.join(workerData.repoRoot, 'packages', m[1], 'src/index.ts') : resolve.call(this, request, ...rest);
};
require(workerData.entry);
`;

/** Starts one loader worker thread, from the compiled `.js` entry or, under test, from sources. @internal */
export const spawnLoaderWorker = (init: WorkerInit): Worker => {
  if (__filename.endsWith('.js')) return new Worker(path.join(__dirname, 'loader-worker.js'), { workerData: init });
  const repoRoot = path.resolve(__dirname, '../../../..');
  return new Worker(SOURCE_BOOTSTRAP, { eval: true, workerData: { ...init, repoRoot, entry: path.join(__dirname, 'loader-worker.ts') } });
};
