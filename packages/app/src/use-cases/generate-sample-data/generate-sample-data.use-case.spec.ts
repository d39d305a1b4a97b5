import 'reflect-metadata';
import { FakeClock, MemoryLogger, RecordingProgress } from '../../testing';
import { SILENT_PROGRESS } from '../../ports/progress.port';
import type { ValidGenerateSampleDataInput } from './generate-sample-data.input';
import { GenerateSampleDataUseCase } from './generate-sample-data.use-case';
import type { SampleDataGeneratorPort } from './sample-data-generator.port';

describe('GenerateSampleDataUseCase', () => {
  it('sums the shards the generator wrote and maps a failure to a typed error', async () => {
    const input: { value: ValidGenerateSampleDataInput } = {
      value: { stage: 3, positions: 10, outputDir: '/tmp/x', seed: 0, rowsPerFile: null },
    };
    const generator: SampleDataGeneratorPort = {
      generate: async (req, onProgress) => {
        onProgress(5, 10, 'games');
        onProgress(10, 10, 'games');
        return [
          { path: `${req.outputDir}/a.feather`, rows: 6, bytes: 100 },
          { path: `${req.outputDir}/b.feather`, rows: 4, bytes: 50 },
        ];
      },
    };
    const clock = new FakeClock();
    const result = await new GenerateSampleDataUseCase(generator, SILENT_PROGRESS, clock, new MemoryLogger()).execute(
      input.value,
    );
    expect(result.ok && { rows: result.value.rows, bytes: result.value.bytes }).toEqual({ rows: 10, bytes: 150 });
    const failing: SampleDataGeneratorPort = {
      generate: async () => {
        throw new Error('disk full: /tmp/x');
      },
    };
    const failed = await new GenerateSampleDataUseCase(failing, SILENT_PROGRESS, clock, new MemoryLogger()).execute(
      input.value,
    );
    expect(failed).toEqual({ ok: false, error: { kind: 'write-failed', message: 'disk full: /tmp/x' } });
  });

  it('reports each phase as its own progress task that reaches its total, and marks open tasks failed on an error', async () => {
    const input: { value: ValidGenerateSampleDataInput } = {
      value: { stage: 2, positions: 4, outputDir: '/tmp/x', seed: 0, rowsPerFile: null },
    };
    const generator: SampleDataGeneratorPort = {
      generate: async (req, onProgress) => {
        for (let i = 1; i <= 4; i += 1) onProgress(i, 4, 'games');
        onProgress(4, 4, 'legal moves');
        onProgress(1, 2, 'writing');
        onProgress(2, 2, 'writing');
        return [{ path: `${req.outputDir}/a.feather`, rows: 4, bytes: 10 }];
      },
    };
    const progress = new RecordingProgress();
    await new GenerateSampleDataUseCase(generator, progress, new FakeClock(), new MemoryLogger()).execute(input.value);
    expect(progress.tasks.map((t) => [t.start.label, t.start.total, t.start.unit, t.done, t.outcome, t.late])).toEqual([
      ['sample data: games', 4, 'positions', 4, 'done', 0],
      ['sample data: legal moves', 4, 'positions', 4, 'done', 0],
      ['sample data: writing', 2, 'files', 2, 'done', 0],
    ]);
    const failing: SampleDataGeneratorPort = {
      generate: async (_r, onProgress) => {
        onProgress(1, 4, 'games');
        throw new Error('disk full');
      },
    };
    const failed = new RecordingProgress();
    await new GenerateSampleDataUseCase(failing, failed, new FakeClock(), new MemoryLogger()).execute(input.value);
    expect(failed.tasks.map((t) => [t.done, t.outcome])).toEqual([[1, 'failed']]);
  });
});
