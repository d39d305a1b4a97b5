import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

// When the caller runs from TypeScript sources (jest with swc), there is no compiled `.js` entry: the worker then
// starts from this small CommonJS bootstrap, which compiles `.ts` files with @swc/core (a root dev dependency) and
// maps @maou/bench-* to their sources. Built code never takes this path.
const SOURCE_BOOTSTRAP = `
const fs = require('node:fs'), path = require('node:path'), Module = require('node:module');
const { workerData } = require('node:worker_threads');
const swc = require(path.join(workerData.repoRoot, 'node_modules/@swc/core'));
require.extensions['.ts'] = (m, file) => m._compile(swc.transformSync(fs.readFileSync(file, 'utf8'), {
  filename: file, jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' }, module: { type: 'commonjs' } }).code, file);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@maou\\/bench-([a-z]+)(\\/[a-z]+)?$/.exec(request);
  return m ? path.join(workerData.repoRoot, 'packages', m[1], 'src', m[2] ?? '', 'index.ts') : resolve.call(this, request, ...rest);
};
require(workerData.entry);
`;

/**
 * Starts a worker thread on `entry` (a module path without extension, next to the caller): the compiled `.js`, or
 * under test, the `.ts` source through the bootstrap above. `callerFile` is the caller's `__filename`.
 * @public
 */
export const spawnWorker = (callerFile: string, entry: string, workerData: object): Worker => {
  const dir = path.dirname(callerFile);
  if (callerFile.endsWith('.js')) return new Worker(path.join(dir, `${entry}.js`), { workerData });
  const repoRoot = path.resolve(__dirname, '../../../..');
  return new Worker(SOURCE_BOOTSTRAP, {
    eval: true,
    workerData: { ...workerData, repoRoot, entry: path.join(dir, `${entry}.ts`) },
  });
};
