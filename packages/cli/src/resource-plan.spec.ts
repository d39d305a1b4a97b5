import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceDetectorAdapter } from '@maou/bench-infra';
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
});
