import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useCaseContainer as container } from '@maou/bench-use-cases';
import { TOKENS, type DataSourceFactoryPort } from '@maou/bench-use-cases';
import { FakeClock, MemoryLogger, RecordingProgress } from '@maou/bench-use-cases/testing';
import { registerSources } from './register-sources';
import { shippedPlugIns } from './plug-ins';

describe('registerSources', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'maou-reg-src-'));
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('given no cached sample data, when the sample source opens, then each generation phase reaches its total; a reuse reports nothing', async () => {
    const child = container.createChildContainer();
    const progress = new RecordingProgress();
    child.registerInstance(TOKENS.Logger, new MemoryLogger());
    child.registerInstance(TOKENS.Clock, new FakeClock());
    child.registerInstance(TOKENS.Progress, progress);
    registerSources(child, shippedPlugIns().sources);
    const factory = child.resolve<DataSourceFactoryPort>(TOKENS.DataSourceFactory);
    const spec = {
      kind: 'sample',
      label: 'sample',
      sampled: false,
      streamable: true,
      cacheDir,
      positions: 300,
      seed: 5,
    };
    const source = await factory.open(spec, 2, null);
    const rows = (await source.shards()).reduce((n, s) => n + s.rows, 0);
    expect(rows).toBe(300);
    const seen = progress.tasks.map((t) => [t.start.label, t.start.unit, t.start.total, t.done, t.outcome, t.late]);
    expect(seen).toEqual([
      ['sample data (stage 2): games', 'positions', 300, 300, 'done', 0],
      ['sample data (stage 2): legal moves', 'positions', 300, 300, 'done', 0],
      ['sample data (stage 2): writing', 'files', 1, 1, 'done', 0],
    ]);
    await factory.open(spec, 2, null);
    expect(progress.tasks).toHaveLength(3);
  });
});
