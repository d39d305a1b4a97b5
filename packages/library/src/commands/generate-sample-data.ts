import {
  GenerateSampleDataUseCase,
  type GenerateSampleDataResult,
  type ValidGenerateSampleDataInput,
} from '@maou/bench-use-cases';
import { err, ok } from '@maou/bench-domain';
import { toGenerateSampleDataInput, type GenerateSampleDataArgs } from '@maou/bench-interface';
import { jsHeapRefusal, sampleGenerationHeap } from '@maou/bench-host';
import type { GlobalOptions } from '../composition-root';
import type { CommandSpec } from '../run-command';

const summary = (r: GenerateSampleDataResult): string =>
  [
    ...r.files.map((f) => `${f.path}\t${f.rows} rows\t${f.bytes} bytes`),
    `Stage ${r.stage}: ${r.rows} rows in ${r.files.length} file(s), ${(r.bytes / 1e6).toFixed(2)} MB, ${r.seconds.toFixed(1)} s`,
    '',
  ].join('\n');

export const generateSampleDataSpec: CommandSpec<
  GenerateSampleDataArgs & GlobalOptions,
  ValidGenerateSampleDataInput,
  GenerateSampleDataResult
> = {
  name: 'generate-sample-data',
  validate: (args) => {
    const input = toGenerateSampleDataInput(args);
    if (!input.ok) return input;
    // the heap beside the address space: a small --max-old-space-size is refused here, not aborted by V8 mid-way
    const heap = jsHeapRefusal(
      sampleGenerationHeap(input.value.positions),
      `generating ${input.value.positions} positions`,
    );
    return heap ? err([{ field: '--max-old-space-size', message: heap }]) : input;
  },
  outputs: (_args, input) => ({ outputDir: { dir: input.outputDir, stage: input.stage } }),
  run: async (container, input) => {
    const result = await container.resolve(GenerateSampleDataUseCase).execute(input);
    return result.ok ? ok(result.value) : err({ code: 1, message: result.error.message });
  },
  present: (r) => ({ payload: r, text: summary(r) }),
};
