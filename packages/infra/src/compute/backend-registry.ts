import { type BackendPlugin } from './backend-plugin';

/** Backends by name; new ones (e.g. webgpu) register here instead of growing an if/else chain. @public */
export class BackendRegistry {
  private readonly plugins = new Map<string, BackendPlugin>();

  register(plugin: BackendPlugin): this {
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
}
