import { createRequire } from 'node:module';
import { withoutPlatformWarning } from './tfjs-platform-warning';

/**
 * A lazy CommonJS loader that resolves names from `from` (the caller's `__filename`): under pnpm's isolated layout
 * a package sees only its own dependencies, so the compute backends' tfjs packages and infra's cloud clients must be
 * resolved from the package that declares them, not from here. `import()` would pick these packages' ESM builds,
 * whose types differ from the CommonJS ones compiled against, and a native import() fails where code runs in a vm
 * without ESM support (a consumer's jest). A tfjs package may bring another tfjs-core copy: it loads without tfjs's
 * platform warning.
 * @public
 */
export const moduleLoaderFrom =
  (from: string) =>
  <T>(name: string): Promise<T> =>
    Promise.resolve().then(() => withoutPlatformWarning(() => createRequire(from)(name) as T));
