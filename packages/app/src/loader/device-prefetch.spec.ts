import type { HostBatch } from '@maou/bench-domain';
import { devicePrefetch } from './device-prefetch';

const batch = (i: number): HostBatch => ({
  stage: 3,
  size: i,
  boardIds: new Int32Array(0),
  hands: new Float32Array(0),
  targets: { stage: 3, moveLabel: new Float32Array(0), resultValue: new Float32Array(0) },
});
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function* source(n: number, log: string[], failAt = -1): AsyncGenerator<HostBatch> {
  for (let i = 0; i < n; i++) {
    if (i === failAt) throw new Error(`source failed at ${i}`);
    log.push(`fetch ${i}`);
    yield batch(i);
  }
}

describe('devicePrefetch', () => {
  it('given a buffer of 2, when a step runs, then the next batches are uploaded before the step ends', async () => {
    const log: string[] = [];
    const upload = async (b: HostBatch) => {
      log.push(`upload ${b.size}`);
      return `t${b.size}`;
    };
    const seen: string[] = [];
    for await (const p of devicePrefetch(source(4, log), { bufferSize: 2, upload })) {
      log.push(`step ${p.host.size} start`);
      await tick(5);
      log.push(`step ${p.host.size} end`);
      seen.push(p.device);
    }
    expect(seen).toEqual(['t0', 't1', 't2', 't3']);
    expect(log.indexOf('upload 2')).toBeLessThan(log.indexOf('step 0 end'));
    expect(log.indexOf('upload 3')).toBeGreaterThan(log.indexOf('step 0 end'));
  });

  it('given prefetch off, when a step runs, then nothing is uploaded ahead of it', async () => {
    const log: string[] = [];
    for await (const p of devicePrefetch(source(3, log), {
      bufferSize: 0,
      upload: (b) => log.push(`upload ${b.size}`),
    })) {
      log.push(`step ${p.host.size}`);
    }
    expect(log).toEqual([
      'fetch 0',
      'upload 0',
      'step 0',
      'fetch 1',
      'upload 1',
      'step 1',
      'fetch 2',
      'upload 2',
      'step 2',
    ]);
  });

  it('given a failing source, when its batch is reached, then the error surfaces there; an early stop disposes prepared batches', async () => {
    const seen: number[] = [];
    const run = async () => {
      for await (const p of devicePrefetch(source(5, [], 2), { bufferSize: 3, upload: (b) => b.size }))
        seen.push(p.device);
    };
    await expect(run()).rejects.toThrow('source failed at 2');
    expect(seen).toEqual([0, 1]);
    const disposed: number[] = [];
    for await (const _ of devicePrefetch(source(5, []), {
      bufferSize: 3,
      upload: (b) => b.size,
      dispose: (d) => disposed.push(d),
    }))
      break;
    expect(disposed.sort()).toEqual([1, 2, 3]);
  });
});
