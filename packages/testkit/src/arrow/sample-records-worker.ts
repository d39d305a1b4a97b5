import { parentPort, workerData } from 'node:worker_threads';
import type { Stage } from '@maou/bench-domain';
import { buildSampleRecords } from '@maou/bench-infra';

// Test-only worker: builds sample records at full speed, outside jest's vm context (where Stage 2's legal-move
// generation runs about five times slower).
const { stage, positions, seed } = workerData as { stage: Stage; positions: number; seed: number };
parentPort!.postMessage(buildSampleRecords(stage, positions, seed));
