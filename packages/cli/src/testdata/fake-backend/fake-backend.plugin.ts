import { ok } from '@maou/bench-domain';
import { createWasmBackendPlugin, selectedByName, type BackendPlugin } from '@maou/bench-compute';

const wasm = createWasmBackendPlugin('fast');

/** Steps trained through this plug-in's own trainer factory. */
export const fakeSteps = { count: 0 };

/**
 * A backend plug-in as a new one would be written: its own name, `--gpu` usage, help text, placement and capabilities.
 * It runs on this project's wasm kernels (single-threaded, in wasm's bounded heap) and reports itself under its own
 * name, so a run that used it says so.
 */
export const fakeBackendPlugin: BackendPlugin = {
  name: 'fake',
  usage: 'fake',
  help: 'a test backend on the wasm kernels',
  placement: 'host',
  // what fits is bounded by the wasm heap it runs in (its start reports the limit): --find-max-batch can search it
  boundedHeap: true,
  dataParallel: false,
  // Its own trainer factory, handed out by the registry: the engine's trainer, each step counted.
  trainer: (single) => (options) => {
    const trainer = single(options);
    const step = trainer.step.bind(trainer);
    trainer.step = (...args) => {
      fakeSteps.count += 1;
      return step(...args);
    };
    return trainer;
  },
  selects: selectedByName('fake'),
  priority: -1,
  async start(config) {
    const started = await wasm.start({ ...config, threads: 1 });
    if (!started.ok) return started;
    return ok({
      ...started.value,
      name: 'fake',
      device: 'fake (wasm kernels)',
      notes: ['fake backend for the plug-in spec'],
    });
  },
};
