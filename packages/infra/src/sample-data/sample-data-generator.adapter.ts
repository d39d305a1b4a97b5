import type { GeneratedShard, SampleDataGeneratorPort, SampleDataRequest } from '@maou/bench-use-cases';
import { generateSampleData } from './generate-sample-data';

/** SampleDataGeneratorPort over random tsshogi games and the Arrow writer. @public */
export class SampleDataGeneratorAdapter implements SampleDataGeneratorPort {
  async generate(
    request: SampleDataRequest,
    onProgress: (done: number, total: number, phase: string) => void,
  ): Promise<readonly GeneratedShard[]> {
    return generateSampleData({
      stage: request.stage,
      positions: request.positions,
      seed: request.seed,
      outputDir: request.outputDir,
      rowsPerFile: request.rowsPerFile ?? undefined,
      onProgress,
    });
  }
}
