import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '@maou/bench-host';
import type { WorkerInit } from './worker-protocol';

/** Starts one loader worker thread, from the compiled `.js` entry or, under test, from sources. @internal */
export const spawnLoaderWorker = (init: WorkerInit): Worker => spawnWorker(__filename, 'loader-worker', init);
