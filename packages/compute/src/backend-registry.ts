import type { TrainerFactory } from '@maou/bench-engine/contracts';
import { type BackendPlugin } from './backend-plugin';

/** Backends by name; new ones register here instead of growing an if/else chain (`register-backends.ts`). @public */
export class BackendRegistry {
  private readonly plugins = new Map<string, BackendPlugin>();

  register(plugin: BackendPlugin): this {
    if (this.plugins.has(plugin.name)) throw new Error(`backend '${plugin.name}' is registered twice`);
    this.plugins.set(plugin.name, plugin);
    return this;
  }

  get(name: string): BackendPlugin | undefined {
    return this.plugins.get(name);
  }

  names(): string[] {
    return [...this.plugins.keys()];
  }

  /** Highest priority first. */
  byPriority(): BackendPlugin[] {
    return [...this.plugins.values()].sort((a, b) => b.priority - a.priority);
  }

  /** The trainer factory of a run: the started backend's own (its plug-in's `trainer`) or `single`, the engine's. */
  trainerFactory(single: TrainerFactory): TrainerFactory {
    return (options) => {
      const plugin = options.backend && this.get(options.backend.name);
      return plugin?.trainer ? plugin.trainer(single)(options) : single(options);
    };
  }
}
