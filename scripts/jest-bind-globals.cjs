// Jest transform (jest.config.ts): the sources through @swc/jest, tfjs's prebuilt bundles as they are, and in both
// the intrinsics (`Math`, `Symbol`, `Array`, ...) bound to module-scope variables on the first line. Jest runs every
// module inside a vm context, whose global object answers each lookup of a global through an interceptor that V8
// cannot cache: tfjs's cpu kernels (`Math.floor` in `indexToLoc`, `typeof Symbol` in every `for...of` helper) and
// the engine's seeded random numbers (`Math.imul`) ran 5–6 times slower under jest than under node. Same objects,
// same code: only where the name is looked up changes. Date, timers and `performance` stay global (fake timers).
'use strict';
const crypto = require('node:crypto');

/** Built-ins nothing in the tests replaces; read once per module from the test's own global object. */
const INTRINSICS = [
  'Array',
  'ArrayBuffer',
  'DataView',
  'Error',
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'Reflect',
  'Set',
  'String',
  'Symbol',
  'TypeError',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'WeakMap',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
];
const BINDINGS = `var ${INTRINSICS.map((name) => `${name} = globalThis.${name}`).join(', ')};`;
const DIRECTIVE = /^(\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*)(['"])use strict\2;?/;

/** After a leading 'use strict' (which must stay the first statement), on its line: line numbers do not move. */
const bind = (code) => {
  const m = DIRECTIVE.exec(code);
  const at = m ? m[0].length : 0;
  return `${code.slice(0, at)}${BINDINGS}${code.slice(at)}`;
};
const hash = (...parts) => parts.reduce((h, p) => h.update(p), crypto.createHash('sha256')).digest('hex');

module.exports = {
  /** `swc`: @swc/jest's options (TypeScript sources); none: the file is JavaScript to load as it is. */
  createTransformer(options = {}) {
    if (!options.swc) {
      return {
        process: (source) => ({ code: bind(source) }),
        getCacheKey: (source, path) => hash(BINDINGS, path, source),
      };
    }
    const swc = require('@swc/jest').createTransformer(options.swc);
    return {
      process(source, path, jestOptions) {
        const out = swc.process(source, path, jestOptions);
        return typeof out === 'string' ? bind(out) : { ...out, code: bind(out.code) };
      },
      getCacheKey: (source, path, jestOptions) => hash(BINDINGS, swc.getCacheKey(source, path, jestOptions)),
    };
  },
};
