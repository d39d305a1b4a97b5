import { type ComputeBackendPort } from '@maou/bench-use-cases';
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
 * Activates the tfjs backend named in `ComputeConfig.backend`; for `auto` the highest-priority plugin that
 * starts, for `host` the highest-priority `host` one (its placement in the registry). Throws `BackendUnavailableError` when none does.
 * @public
 */
export class TfjsComputeBackendAdapter implements ComputeBackendPort {
  constructor(private readonly registry: BackendRegistry) {}

  async activate(config: ComputeConfig): Promise<BackendInfo> {
    const candidates =
      config.backend === 'auto'
        ? this.registry.byPriority()
        : config.backend === 'host'
          ? this.registry.hostByPriority()
          : [this.registry.get(config.backend)];
    const failures: BackendStartError[] = [];
    for (const plugin of candidates) {
      if (!plugin) {
        failures.push({
          backend: config.backend,
          message: `unknown backend; known: ${this.registry.names().join(', ')}`,
        });
        continue;
      }
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
