import { moduleLoaderFrom } from '@maou/bench-host';

/** Loads the backends' optional tfjs packages, resolved from this package, which declares them. */
export const requireModule = moduleLoaderFrom(__filename);
