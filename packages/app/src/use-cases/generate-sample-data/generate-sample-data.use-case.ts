import { err, ok, type Result, type Stage } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ProgressPort, ProgressTask } from '../../ports/progress.port';
import type { GenerateSampleDataError } from './generate-sample-data.errors';
import type { ValidGenerateSampleDataInput } from './generate-sample-data.input';
import type { GeneratedShard, SampleDataGeneratorPort } from './sample-data-generator.port';

/** What was generated, and how long it took. @public */
export interface GenerateSampleDataResult {
  readonly stage: Stage;
  readonly files: readonly GeneratedShard[];
  readonly rows: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** Generates a sample dataset of one stage, reporting progress per phase. @public */
export class GenerateSampleDataUseCase {
  constructor(
    private readonly generator: SampleDataGeneratorPort,
    private readonly progress: ProgressPort,
    private readonly clock: ClockPort,
    private readonly logger: LoggerPort,
  ) {}

  async execute(input: ValidGenerateSampleDataInput): Promise<Result<GenerateSampleDataResult, GenerateSampleDataError>> {
    const started = this.clock.now();
    const tasks = new Map<string, ProgressTask>();
    const onProgress = (done: number, total: number, phase: string): void => {
      let task = tasks.get(phase);
      if (!task) {
        for (const t of tasks.values()) t.finish();
        task = this.progress.start({ label: `sample data: ${phase}`, total, unit: phase === 'writing' ? 'files' : 'positions' });
        tasks.set(phase, task);
      }
      task.update(done);
    };
    try {
      const files = await this.generator.generate(input, onProgress);
      for (const t of tasks.values()) t.finish();
      const seconds = (this.clock.now() - started) / 1000;
      const rows = files.reduce((a, f) => a + f.rows, 0);
      const bytes = files.reduce((a, f) => a + f.bytes, 0);
      this.logger.info({ stage: input.stage, rows, files: files.length, seconds }, 'sample data generated');
      return ok({ stage: input.stage, files, rows, bytes, seconds });
    } catch (e) {
      for (const t of tasks.values()) t.finish('failed');
      return err({ kind: 'write-failed', message: e instanceof Error ? e.message : String(e) });
    }
  }
}
