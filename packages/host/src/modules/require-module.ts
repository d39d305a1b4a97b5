/**
 * Loads a CommonJS entry lazily. `import()` would pick these packages' ESM builds, whose types differ from
 * the CommonJS ones this package compiles against, and a native import() fails where code runs in a vm without ESM
 * support (a consumer's jest).
 * @public
 */
export const requireModule = <T>(name: string): Promise<T> =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  Promise.resolve().then(() => require(name) as T);
