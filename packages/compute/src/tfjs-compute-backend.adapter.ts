import { candidateBackends, type ComputeBackendPort } from '@maou/bench-use-cases';
import type { BackendInfo } from '@maou/bench-engine/contracts';
import { type ComputeConfig } from '@maou/bench-domain';
import { type BackendStartError } from './backend-plugin';
import { type BackendRegistry } from './backend-registry';

/** No backend could be started; the message names the backend(s) and how to install them. @public */
export class BackendUnavailableError extends Error {
  constructor(readonly failures: readonly BackendStartError[]) {
    super(failures.map((f) => `--gpu ${f.backend}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`).join('; '));
    this.name = 'BackendUnavailableError';
  }
}

/**
 * Activates the tfjs backend `ComputeConfig.backend` asks for: its candidates are the use cases' `candidateBackends`
 * over the registry by priority (`auto`: the first that starts; `host`: the first `host` one that starts), which also
 * refuses `--mixed-precision` on a backend without it. Throws `BackendUnavailableError` when none starts.
 * @public
 */
export class TfjsComputeBackendAdapter implements ComputeBackendPort {
  constructor(private readonly registry: BackendRegistry) {}

  async activate(config: ComputeConfig): Promise<BackendInfo> {
    const request = candidateBackends(config, this.registry.byPriority());
    if (!request.ok) throw new Error(`${request.error.field}: ${request.error.message}`);
    const candidates = request.value;
    if (candidates.length === 0)
      throw new BackendUnavailableError([
        { backend: config.backend, message: `unknown backend; known: ${this.registry.names().join(', ')}` },
      ]);
    const failures: BackendStartError[] = [];
    for (const plugin of candidates) {
      const started = await plugin.start(config);
      if (started.ok) {
        // a failure's first line: a backend that explains itself over several lines (cuda's search) summarises in it
        const skipped = failures.map((f) => `skipped ${f.backend}: ${f.message.split('\n')[0]}`);
        const replicas = plugin.dataParallel && started.value.threads > 1 ? started.value.threads : 1;
        return {
          ...started.value,
          placement: plugin.placement,
          ...(plugin.fallback ? { fallback: true } : {}),
          replicas,
          notes: [...started.value.notes, ...skipped],
        };
      }
      failures.push(started.error);
    }
    throw new BackendUnavailableError(failures);
  }
}
