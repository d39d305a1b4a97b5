import { runFaultCampaign } from '@maou/bench-testkit/sources';

// The short campaign of #19: s3rver and the loopback GCS and BigQuery servers behind the fault proxy, a seeded
// random schedule per run. `pnpm fault:campaign` runs the long one and prints the same figures.
describe('cloud fault campaign (short)', () => {
  beforeAll(() => {
    // As in the BigQuery spec: teeny-request's node-fetch import cannot run in Jest's VM; its node:http path can.
    (globalThis as Record<string, unknown>).Bun = {};
  });
  afterAll(() => {
    delete (globalThis as Record<string, unknown>).Bun;
  });

  it('given 24 runs of 5xx, 429, resets, truncated bodies and stalls, then every run succeeds or fails naming what failed, leaving nothing partial', async () => {
    const figures = await runFaultCampaign({ runs: 24, seconds: 100, seed: 19 });
    expect(figures).toMatchObject({ runs: 24, uncleanFailures: [], hangs: 0, wrongData: 0, partialFilesLeft: 0 });
    expect(figures.successes + figures.cleanFailures).toBe(24);
    expect(figures.faultsInjected).toBeGreaterThanOrEqual(24);
    expect(figures.successes).toBeGreaterThan(0);
    expect(figures.retries).toBeGreaterThan(0);
  }, 150_000);
});
