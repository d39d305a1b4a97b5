import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TOKENS,
  type ClockPort,
  type DataLoaderFactoryPort,
  type LoggerPort,
  type ProgressPort,
} from '@maou/bench-app';
import { type TrainerFactory } from '@maou/bench-engine';
import { describeGpuChoices, toBenchmarkConfig } from '@maou/bench-interface';
import { createBackendRegistry, TfjsComputeBackendAdapter } from '@maou/bench-compute';
import { createSourceRegistry } from '@maou/bench-infra';
import { FIXTURE_DIR as FIXTURES } from '@maou/bench-testkit/sources';
import { createContainer } from './composition-root';
import { fakeBackendPlugin } from './testdata/fake-backend/fake-backend.plugin';
import { fixtureFolderSource, type FixtureFolderSpec } from './testdata/fixture-folder-source/fixture-folder.source';

// The "done when": a new backend and a new datasource are each one folder (testdata/) and one registration
// line, and then work end to end: chosen by --gpu and listed in its help; opened through the registry lookup the
// composition root uses, feeding rows pyarrow wrote through the real loader into real training steps.
const cacheDir = mkdtempSync(join(tmpdir(), 'maou-plug-ins-'));
afterAll(() => rm(cacheDir, { recursive: true, force: true }));

const backends = createBackendRegistry().register(fakeBackendPlugin);
const validate = (choices = backends.byPriority()) =>
  toBenchmarkConfig(
    { gpu: 'fake', stage: 1, batchSize: 8, modelArchitecture: 'lite', dataloaderWorkers: 0, testRatio: 0.25 },
    { sampleCacheDir: cacheDir, workers: 0, backends: choices },
  );

describe('a backend and a datasource added as plug-ins', () => {
  it('given the fake backend registered, then --gpu lists it with its help text and selects it by name', () => {
    expect(describeGpuChoices(backends.byPriority())).toContain('fake (a test backend on the wasm kernels)');
    const validated = validate();
    if (!validated.ok) throw new Error(JSON.stringify(validated.error));
    expect(validated.value.config.compute).toMatchObject({ backend: 'fake', deviceIndex: 0 });
  });

  it('given the shipped registry only, then --gpu fake is refused naming the flag and the choices', () => {
    const refused = validate(createBackendRegistry().byPriority());
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error).toEqual([
        { field: '--gpu', message: "unknown device 'fake'; use cuda:N, webgpu, tensorflow, wasm, cpu, auto" },
      ]);
  });

  it('given both registered, then a run on the fake backend trains on every training row the fake source serves', async () => {
    const validated = validate();
    if (!validated.ok) throw new Error(JSON.stringify(validated.error));
    const { config } = validated.value;
    const c = createContainer({ logLevel: 'silent' });
    const sources = createSourceRegistry({
      logger: c.resolve<LoggerPort>(TOKENS.Logger),
      clock: c.resolve<ClockPort>(TOKENS.Clock),
      progress: c.resolve<ProgressPort>(TOKENS.Progress),
    }).register(fixtureFolderSource);
    expect(sources.describe()).toContainEqual({
      kind: 'fixture-folder',
      help: 'the .feather files of one folder (test plug-in)',
    });

    const backend = await new TfjsComputeBackendAdapter(backends).activate(config.compute);
    expect(backend).toMatchObject({ name: 'fake', device: 'fake (wasm kernels)', threads: 1 });
    const spec: FixtureFolderSpec = { kind: 'fixture-folder', dir: FIXTURES };
    const source = await sources.open(spec, 1, null);
    const shards = await source.shards();
    expect(shards.map((s) => s.id)).toEqual(['stage1-part0.feather', 'stage1-part1.feather', 'stage1-part2.feather']);

    const loader = await c.resolve<DataLoaderFactoryPort>(TOKENS.DataLoaderFactory).create(source, config.loader);
    const trainer = c.resolve<TrainerFactory>(TOKENS.TrainerFactory)({
      stage: 1,
      training: config.training,
      totalSteps: loader.batchesPerEpoch.train,
      seed: 1,
      backend,
    });
    const clock = c.resolve<ClockPort>(TOKENS.Clock);
    let rows = 0;
    const losses: number[] = [];
    try {
      for await (const batch of loader.iterate('train', 0)) {
        rows += batch.size;
        losses.push((await trainer.step(batch, clock)).loss);
      }
    } finally {
      trainer.dispose();
      await loader.close();
    }
    const total = shards.reduce((n, s) => n + s.rows, 0);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBe(loader.samplesPerEpoch.train);
    expect(rows).toBeGreaterThanOrEqual(Math.floor(total * 0.75) - 8);
    expect(losses).toHaveLength(loader.batchesPerEpoch.train);
    expect(losses.every(Number.isFinite)).toBe(true);
  }, 120_000);
});
