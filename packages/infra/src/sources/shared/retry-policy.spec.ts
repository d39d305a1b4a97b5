import { backoffDelay, RetriesExhaustedError, withRetry } from './retry-policy';
import { transientClassifier } from './transient-error';

const shared = transientClassifier();

const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 350 };

describe('withRetry', () => {
  it('given transient failures, when retried, then delays are jittered below an exponential cap and the call succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const value = await withRetry(
      's3://b/k',
      async () => {
        calls += 1;
        if (calls < 4) throw Object.assign(new Error('slow down'), { $metadata: { httpStatusCode: 503 } });
        return 'done';
      },
      policy,
      shared,
      {
        sleep: async (ms) => {
          delays.push(ms);
        },
        random: () => 0.999,
        onRetry: () => undefined,
      },
    );
    expect(value).toBe('done');
    expect(delays).toEqual([99, 199, 349]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('given a lasting transient failure, when tries run out, then the error names the object and the tries', async () => {
    const run = withRetry(
      'gs://b/k',
      () => Promise.reject(Object.assign(new Error('boom'), { code: 'ECONNRESET' })),
      policy,
      shared,
      { sleep: async () => undefined, random: () => 0, onRetry: () => undefined },
    );
    await expect(run).rejects.toBeInstanceOf(RetriesExhaustedError);
    await expect(run).rejects.toThrow('gs://b/k: failed after 4 tries: ECONNRESET: boom');
  });

  it('given a client error, when thrown, then it is not retried', async () => {
    let calls = 0;
    const run = withRetry(
      'x',
      () => {
        calls += 1;
        return Promise.reject(Object.assign(new Error('denied'), { code: 403 }));
      },
      policy,
      shared,
      { sleep: async () => undefined, random: () => 0, onRetry: () => undefined },
    );
    await expect(run).rejects.toThrow('denied');
    expect(calls).toBe(1);
  });

  it.each([
    [{ $metadata: { httpStatusCode: 429 } }, true],
    [{ code: 500 }, true],
    [{ response: { status: 502 } }, true],
    [{ code: 'EPIPE' }, true],
    [{ message: 'socket hang up' }, true],
    [{ code: 404 }, false],
    [{ code: 200, message: 'bad json' }, false],
    [{ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }, false],
    [{ name: 'SlowDown' }, false],
  ])('classifies %j as transient=%s by the rules every store shares', (e, expected) => {
    expect(shared(e)).toBe(expected);
  });

  it("given a store's classifier, then its own errors are retried before the shared rules call them final", async () => {
    const busy = Object.assign(new Error('busy'), { status: 409, code: 'StoreBusy' });
    const own = transientClassifier((e) => (e as { code?: unknown }).code === 'StoreBusy');
    expect([shared(busy), own(busy), own({ cause: busy }), own({ status: 409 })]).toEqual([false, true, true, false]);
    let calls = 0;
    const hooks = { sleep: async () => undefined, random: () => 0, onRetry: () => undefined };
    const value = await withRetry('x', async () => (++calls < 3 ? Promise.reject(busy) : 'done'), policy, own, hooks);
    expect([value, calls]).toEqual(['done', 3]);
  });
});
