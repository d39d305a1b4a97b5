// @maou/bench-app/commands: what the `maou` binary drives (@maou/cli): each command's spec (its checks, its run on
// a container from the composition root, its summary and JSON), the runner's two halves, and the option tables.
import '../tfjs-copies'; // first: our tfjs-core copies load before any other module of ours needs one
export { benchmarkTrainingSpec, benchmarkTrainingTable } from './benchmark-training';
export { benchmarkDataloaderSpec } from './benchmark-dataloader';
export { benchmarkTuneSpec, benchmarkTuneTable } from './benchmark-tune';
export { benchmarkCompareSpec } from './benchmark-compare';
export { benchmarkIoSpec } from './benchmark-io';
export { generateSampleDataSpec } from './generate-sample-data';
export {
  checkCommand,
  executeCommand,
  type CommandFailure,
  type CommandOutcome,
  type CommandSpec,
  type CommandView,
  type OutputFlags,
  type RunContext,
  type RunHow,
} from '../run-command';
export type { GlobalOptions } from '../composition-root';
export { GLOBAL_OPTIONS } from '../global-options';
export { shippedPlugIns, type PlugIns } from '../plug-ins';
export { helpPointer, UsageError } from '../usage-error';
export { closestName } from '../suggest';
export { interruptedStub } from './benchmark-training.interrupt';
export { interruptedDataloaderStub } from './benchmark-dataloader.output';
