import { inject, injectable } from 'tsyringe';
import { err, ok, type Result, type Stage } from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ProgressPort } from '../../ports/progress.port';
import { TOKENS } from '../../ports/tokens';
import type { GenerateSampleDataError } from './generate-sample-data.errors';
import type { ValidGenerateSampleDataInput } from './generate-sample-data.input';
import type { GeneratedShard, SampleDataGeneratorPort } from './sample-data-generator.port';
import { sampleDataProgress } from './sample-data-progress';

/** What was generated, and how long it took. @public */
export interface GenerateSampleDataResult {
  readonly stage: Stage;
  readonly files: readonly GeneratedShard[];
  readonly rows: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** Generates a sample dataset of one stage, reporting progress per phase. @public */
@injectable()
export class GenerateSampleDataUseCase {
  constructor(
    @inject(TOKENS.SampleDataGenerator) private readonly generator: SampleDataGeneratorPort,
    @inject(TOKENS.Progress) private readonly progress: ProgressPort,
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
  ) {}

  async execute(
    input: ValidGenerateSampleDataInput,
  ): Promise<Result<GenerateSampleDataResult, GenerateSampleDataError>> {
    const started = this.clock.now();
    const progress = sampleDataProgress(this.progress);
    try {
      const files = await this.generator.generate(input, progress.onProgress);
      progress.finish();
      const seconds = (this.clock.now() - started) / 1000;
      const rows = files.reduce((a, f) => a + f.rows, 0);
      const bytes = files.reduce((a, f) => a + f.bytes, 0);
      this.logger.info({ stage: input.stage, rows, files: files.length, seconds }, 'sample data generated');
      return ok({ stage: input.stage, files, rows, bytes, seconds });
    } catch (e) {
      progress.finish('failed');
      return err({ kind: 'write-failed', message: e instanceof Error ? e.message : String(e) });
    }
  }
}
