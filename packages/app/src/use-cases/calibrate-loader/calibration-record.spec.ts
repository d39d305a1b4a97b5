import type { CalibrationSignature } from './calibrate-loader.input';
import { parseRecord } from './calibration-record';

const signature: CalibrationSignature = {
  cpuCores: 2,
  memoryBytes: 8e9,
  os: 'linux',
  node: 'v20',
  tfjs: '4.22.0',
  backend: 'wasm',
  backendVersion: '4.22.0',
  batchSize: 256,
  dataset: 'sample',
  streaming: true,
  pinMemory: false,
};
const choice = { workers: 1, prefetchFactor: 2, batchSize: 256, samplesPerSecond: 900, p95WaitMs: 1 };

describe('parseRecord', () => {
  it('given a stored record of this signature, then it is used', () => {
    expect(parseRecord({ signature, createdAtMs: 1000, choice }, signature, 2000, 1e6)).toMatchObject({ choice });
  });

  // Found by `pnpm fuzz:readers` (#19): damaged calibration files whose signature or choice is null or a string.
  it.each([
    [{ signature: null, createdAtMs: 1000, choice }, 'missing or invalid signature'],
    [{ signature: 'x', createdAtMs: 1000, choice }, 'missing or invalid signature'],
    [{ signature, createdAtMs: 1000, choice: 'fast' }, 'missing or invalid fields'],
    [{ signature, createdAtMs: 1000, choice: null }, 'missing or invalid fields'],
    [[], 'missing or invalid fields'],
  ])('given %p, then the reason it cannot be used, never a thrown error', (value, reason) => {
    expect(parseRecord(value, signature, 2000, 1e6)).toBe(reason);
  });
});
