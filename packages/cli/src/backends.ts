import { createBackendRegistry } from '@maou/bench-compute';

/**
 * The compute backends this binary ships (infra's registry): the composition root activates them, and `--gpu`'s
 * choices, help text and validation come from the same list.
 */
export const BACKENDS = createBackendRegistry();
