import type { ResourcePlan } from '@maou/bench-domain';
import { BenchmarkDataloaderUseCase, TOKENS, type LoggerPort } from '@maou/bench-use-cases';
import { err, ok } from '@maou/bench-domain';
import {
  toBenchmarkDataloaderInput,
  type BenchmarkDataloaderArgs,
  type ValidatedDataloaderGrid,
} from '@maou/bench-interface';
import { logResourcePlan } from '@maou/bench-host';
import { watchInterrupts, writeDataloaderHtmlReport, writeJsonNow } from '@maou/bench-infra';
import { dataloaderBenchmarkJson, type BenchmarkDataloaderResult } from './benchmark-dataloader.output';
import { renderDataloaderBenchmark } from '../console/dataloader-summary';
import { machineResources, type GlobalOptions } from '../composition-root';
import type { PlugIns } from '../plug-ins';
import { planResources } from '../resource-plan';
import type { CommandSpec } from '../run-command';
import { signalStop } from './benchmark-training.interrupt';
import { withSchema } from '../report-schemas/report-schemas';
import { interruptedDataloaderStub } from './benchmark-dataloader.output';

type Valid = ValidatedDataloaderGrid & { readonly plan: ResourcePlan };

export const benchmarkDataloaderSpec = (
  plugIns: PlugIns,
): CommandSpec<BenchmarkDataloaderArgs & GlobalOptions, Valid, BenchmarkDataloaderResult> => ({
  name: 'benchmark-dataloader',
  answersSignals: () => true,
  validate: async (args) => {
    const { plan, defaults } = await planResources(args, machineResources(), plugIns);
    const grid = toBenchmarkDataloaderInput(args, defaults, plan.resources.cpuCores);
    return grid.ok ? ok({ ...grid.value, input: { ...grid.value.input, resourceLimits: plan.report }, plan }) : grid;
  },
  outputs: (_args, { input }) => ({ source: input.source }),
  notes: ({ warnings }) => warnings,
  container: () => ({ plugIns }),
  run: async (container, { input, plan }, args, { signal, queuedMs }) => {
    logResourcePlan(plan, container.resolve<LoggerPort>(TOKENS.Logger));
    // A grid has no partial result worth keeping: a signal ends the run at once, saying so (and in --output-json).
    const watch = watchInterrupts('benchmark-dataloader', (reason) => {
      process.stderr.write(
        `maou benchmark-dataloader: interrupted (${reason}) before the grid was complete; nothing measured is reported\n`,
      );
      if (args.outputJson) writeJsonNow(args.outputJson, interruptedDataloaderStub(reason));
    });
    const result = await container
      .resolve(BenchmarkDataloaderUseCase)
      .execute({ ...input, stop: signalStop(signal) })
      .finally(() => watch.dispose());
    if (!result.ok) return err({ code: 1, message: `${result.error.kind}: ${result.error.message}` });
    return ok({ ...result.value, environment: { queued_ms: queuedMs } });
  },
  present: (out, { input, warnings }) => {
    const text = renderDataloaderBenchmark(out, input);
    return {
      payload: withSchema('benchmark-dataloader-report', dataloaderBenchmarkJson(out, input, text, warnings)),
      text,
      writeHtml: (path) => writeDataloaderHtmlReport(out, path),
    };
  },
});
