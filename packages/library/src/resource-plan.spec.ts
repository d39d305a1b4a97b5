import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceDetectorAdapter } from '@maou/bench-host';
import { planResources } from './resource-plan';
import { shippedPlugIns } from './plug-ins';

const GIB = 1024 ** 3;
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'maou-plan-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('planResources', () => {
  it('given a detector over a cgroup v2 tree (2 cores, 1.5 GiB), then the defaults follow its limits and a flag wins', async () => {
    await writeFile(join(root, 'cpu.max'), '200000 100000\n');
    await writeFile(join(root, 'memory.max'), `${1.5 * GIB}\n`);
    const detector = new ResourceDetectorAdapter(root, { affinityCpus: 8, memoryBytes: 64 * GIB });
    const { plan, defaults } = await planResources({ dataloaderWorkers: 1 }, detector, shippedPlugIns());
    expect(plan.report).toMatchObject({ cgroup: 'v2', cpu_quota_cores: 2, memory_bytes: 1.5 * GIB });
    expect(defaults).toMatchObject({ threads: 2, workers: 1, batchSize: 128 });
    expect(defaults.backends.map((b) => b.name)).toContain('wasm');
  });

  it('given an 8 GiB address-space limit with guard regions, then a backend that reserves address space per thread (the default, wasm) is refused naming the limit, and one that does not (cpu) is planned', async () => {
    const space = { limitBytes: 8 * GIB, guardRegions: true };
    const detector = new ResourceDetectorAdapter(root, { affinityCpus: 2, memoryBytes: 64 * GIB, addressSpace: space });
    for (const gpu of [undefined, 'wasm', 'auto']) {
      const { plan } = await planResources({ gpu }, detector, shippedPlugIns());
      expect(plan.refusal).toMatch(/^the address-space limit \(RLIMIT_AS.*\) is 8\.0 GiB; the wasm backend/);
    }
    const cpu = await planResources({ gpu: 'cpu' }, detector, shippedPlugIns());
    expect(cpu.plan.refusal).toBeNull();
    expect(cpu.defaults).toMatchObject({ threads: 2, batchSize: 256 });
  });
});
