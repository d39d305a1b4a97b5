// The composition root first: it loads the reflect-metadata polyfill that tsyringe's decorators need.
import { createContainer, type GlobalOptions } from '../composition-root';
import { planResources } from '../resource-plan';
import { BACKENDS } from '../backends';
import { BenchmarkDataloaderUseCase, TOKENS, type BenchmarkDataloaderInput, type LoggerPort } from '@maou/bench-app';
import { checkBoundedNumbers, formatIssues, type NumberBounds, type ValidationIssue } from '@maou/bench-domain';
import { describeGpuChoices, toBenchmarkConfig, type RawBenchmarkTrainingOptions } from '@maou/bench-interface';
import { logResourcePlan, toJson, writeDataloaderHtmlReport, writeJsonReport } from '@maou/bench-infra';
import type { Options } from 'yargs';
import { dataloaderBenchmarkJson, renderDataloaderBenchmark } from './benchmark-dataloader.output';
import { CLOUD_INPUT_OPTIONS, STAGE3_INPUT_OPTIONS } from './benchmark-training.options';
import type { UtilityCommand } from './command-module';
import { runOutputIssues } from '../output/run-output-checks';
import { watchInterrupts, writeJsonNow } from '../interrupt-watch';

interface Args extends RawBenchmarkTrainingOptions, GlobalOptions {
  readonly numBatches: number; readonly workers?: number[]; readonly prefetchFactors: number[]; readonly batchSizes?: number[];
  readonly repeats: number; readonly noiseMargin: number; readonly consumptionSteps: number; readonly outputJson?: string; readonly json?: boolean; readonly reportHtml?: string;
}

const g = (group: string, o: Record<string, Options>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { group, ...v }]));
const OPTIONS: Record<string, Options> = {
  ...STAGE3_INPUT_OPTIONS,
  ...g('Data:', {
    'sample-ratio': { type: 'number', describe: 'share of cloud data to read, 0.01..1' },
    'test-ratio': { type: 'number', describe: 'validation share left out of the measured split (default 0.2)' },
  }),
  ...CLOUD_INPUT_OPTIONS,
  ...g('Measurement:', {
    'batch-size': { type: 'number', describe: 'batch size (default 256)' },
    'num-batches': { type: 'number', default: 100, describe: 'batches timed per repeat' },
    'pin-memory': { type: 'boolean', describe: 'reuse transfer buffers instead of fresh allocations' },
    workers: { type: 'number', array: true, describe: 'worker counts of the grid (default 0 1 2 … up to the spare cores)' },
    'prefetch-factors': { type: 'number', array: true, default: [2, 4], describe: 'prefetch factors of the grid (workers > 0)' },
    'batch-sizes': { type: 'number', array: true, describe: 'batch sizes of the grid (default: --batch-size)' },
    repeats: { type: 'number', default: 3, describe: 'repeats per grid point; the spread is reported' },
    'noise-margin': { type: 'number', default: 0.1, describe: 'a setting must beat the model rate by this share to count as feeding it' },
    'consumption-steps': { type: 'number', default: 5, describe: "timed training steps for the model's own rate; 0 skips the model" },
    gpu: { type: 'string', describe: `backend for the model: ${describeGpuChoices(BACKENDS.byPriority())}` },
    threads: { type: 'number', describe: 'backend threads; on wasm, data-parallel replicas (default: one per usable core)' },
    'model-architecture': { type: 'string', describe: "network whose own rate the loader must keep up with: resnet (maou's default) or lite" },
    'enable-resource-monitoring': { type: 'boolean', describe: 'per point: CPU and memory per loading thread, worker efficiency (busy share), cache hit rate, process CPU/RSS, GPU utilisation on a GPU backend' },
  }),
  ...g('Output:', { 'output-json': { type: 'string', describe: 'write the results as JSON to this path' }, json: { type: 'boolean', describe: 'print JSON instead of the table' },
    'report-html': { type: 'string', describe: 'write a self-contained HTML report with plots' } }),
};

const eachBounded = (flag: string, v: readonly number[] | undefined, bounds: NumberBounds) =>
  (v ?? []).map((x) => [flag, x, bounds] as const);
const fail = (code: 1 | 2, message: string): void => {
  process.stderr.write(`maou benchmark-dataloader: ${message}\n`);
  process.exitCode = code;
};

const handler = async (args: Args): Promise<void> => {
  const { plan, defaults } = await planResources(args);
  const validated = toBenchmarkConfig({ ...args, stage: 3 }, defaults);
  const issues: ValidationIssue[] = validated.ok ? [] : [...validated.error];
  issues.push(...checkBoundedNumbers([
    ['--num-batches', args.numBatches, { min: 1, max: 1e6, integer: true }],
    ['--repeats', args.repeats, { min: 1, max: 100, integer: true }],
    ['--noise-margin', args.noiseMargin, { min: 0, max: 0.99 }],
    ['--consumption-steps', args.consumptionSteps, { min: 0, max: 10_000, integer: true }],
    ...eachBounded('--workers', args.workers, { min: 0, max: 256, integer: true }),
    ...eachBounded('--prefetch-factors', args.prefetchFactors, { min: 1, max: 64, integer: true }),
    ...eachBounded('--batch-sizes', args.batchSizes, { min: 1, max: 65_536, integer: true }),
  ]));
  if (validated.ok) issues.push(...runOutputIssues({ outputJson: args.outputJson, reportHtml: args.reportHtml, source: validated.value.config.source }));
  if (!validated.ok || issues.length) return fail(2, `invalid options\n${formatIssues(issues)}`);
  const { config, warnings } = validated.value;
  for (const w of warnings) process.stderr.write(`maou benchmark-dataloader: note: ${w}\n`);
  const cores = plan.resources.cpuCores;
  const input: BenchmarkDataloaderInput = {
    stage: 3, source: config.source, sampleRatio: config.sampleRatio, loader: config.loader, training: config.training, compute: config.compute,
    // The default grid stops at the usable cores (cgroup quota and affinity), not the host's.
    workers: args.workers ?? [0, 1, 2, 4, 8].filter((w) => w <= cores), prefetchFactors: args.prefetchFactors, batchSizes: args.batchSizes ?? [config.loader.batchSize],
    repeats: args.repeats, numBatches: args.numBatches, warmupBatches: 5, noiseMargin: args.noiseMargin, consumptionSteps: args.consumptionSteps,
    enableResourceMonitoring: args.enableResourceMonitoring ?? false, resourceLimits: plan.report,
  };
  const container = createContainer({ logLevel: args.logLevel });
  logResourcePlan(plan, container.resolve<LoggerPort>(TOKENS.Logger));
  // A grid has no partial result worth keeping: a signal ends the run at once, saying so (and in --output-json).
  const watch = watchInterrupts('benchmark-dataloader', (reason) => {
    process.stderr.write(`maou benchmark-dataloader: interrupted (${reason}) before the grid was complete; nothing measured is reported\n`);
    if (args.outputJson) writeJsonNow(args.outputJson, { command: 'benchmark-dataloader', interrupted: true, interruption: { reason } });
  });
  const result = await container.resolve(BenchmarkDataloaderUseCase).execute(input).finally(() => watch.dispose());
  if (!result.ok) return fail(1, `${result.error.kind}: ${result.error.message}`);
  const text = renderDataloaderBenchmark(result.value, input);
  const payload = dataloaderBenchmarkJson(result.value, input, text, warnings);
  if (args.outputJson) await writeJsonReport(payload, args.outputJson);
  if (args.reportHtml) {
    const html = await writeDataloaderHtmlReport(result.value, args.reportHtml);
    if (!html.ok) return fail(1, html.error.message);
  }
  process.stdout.write(args.json ? toJson(payload) : text);
};

/** `maou utility benchmark-dataloader`. */
export const benchmarkDataloaderCommand: UtilityCommand = {
  command: 'benchmark-dataloader',
  describe: "Find loader settings (workers × prefetch × batch size) that keep the model fed, against the model's own rate",
  builder: (y) => y.options(OPTIONS)
    .example('$0 utility benchmark-dataloader --num-batches 30', 'on the embedded sample data')
    .example('$0 utility benchmark-dataloader --stage3-data-path data/ --workers 0 1 2 --batch-sizes 128 256 --output-json dl.json', 'your files, a custom grid'),
  handler: (args) => handler(args as unknown as Args),
};
