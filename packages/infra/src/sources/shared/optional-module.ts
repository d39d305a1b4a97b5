import { err, ok, type Result } from '@maou/bench-domain';
import { moduleLoaderFrom } from '@maou/bench-host';
import type { CloudSourceError } from './cloud-source-error';

/** Loads the cloud clients, resolved from this package, which declares them. */
export const requireModule = moduleLoaderFrom(__filename);

const isMissingModule = (error: unknown, name: string): boolean => {
  const e = error as { code?: unknown; message?: unknown };
  const missing = e.code === 'MODULE_NOT_FOUND' || e.code === 'ERR_MODULE_NOT_FOUND';
  return missing && typeof e.message === 'string' && e.message.includes(name);
};

/**
 * Loads an optional client library. A missing package becomes an error value that says how to install it;
 * any other load failure (a broken install) is a bug and is rethrown.
 * @internal
 */
export const loadOptionalModule = async <T>(
  name: string,
  flag: string,
  load: () => Promise<T>,
): Promise<Result<T, CloudSourceError>> => {
  try {
    return ok(await load());
  } catch (error) {
    if (!isMissingModule(error, name)) throw error;
    return err({
      kind: 'missing-client',
      message: `${flag} needs the package ${name}, which is not installed. Install it with: pnpm add ${name} (or npm install ${name})`,
    });
  }
};
