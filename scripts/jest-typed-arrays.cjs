// Jest set-up (jest.config.ts): `toEqual` on typed arrays, element by element in a plain loop. Jest's own equality
// walks a typed array as an object, key by key, with a type check and a property lookup per element: comparing a
// few hundred decoded Stage 3 rows (1,496 floats each) took most of foreign-layouts.spec.ts's CPU time. Only for two
// typed arrays of one class (so `toStrictEqual`'s type check would pass too), and the verdict is jest's: the same
// length, each element equal as `Object.is` sees it (NaN equals NaN, 0 and -0 differ). Any other pair (a Buffer and
// a Uint8Array, arrays from two realms) falls through to jest's own rules.
'use strict';

const isTypedArray = (x) => ArrayBuffer.isView(x) && Object.prototype.toString.call(x) !== '[object DataView]';

function typedArraysEqual(a, b) {
  if (!isTypedArray(a) || !isTypedArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return undefined;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

expect.addEqualityTesters([typedArraysEqual]);
