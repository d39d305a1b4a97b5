// @maou/cli for code: the command line in-process (`run`). A service's entry points (benchmarkTraining and the rest)
// are @maou/bench-app's; this package is yargs and the console on top of them. Importing it runs nothing.
import '@maou/bench-app/commands'; // first: its first module loads our tfjs-core copies before any other module needs one
export { run } from './run';
