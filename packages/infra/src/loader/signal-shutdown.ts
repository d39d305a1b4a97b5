/** Something with an async close, shut down on Ctrl-C. @internal */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Closes every registered loader (terminating its workers) on SIGINT, then raises the signal again so the default
 * action, or the application's own handler, runs as if we had never listened.
 * @internal
 */
export class SigintShutdown {
  private readonly open = new Set<Closable>();
  private readonly handler = (): void => void this.shutdown();

  constructor(
    private readonly signals: Pick<NodeJS.Process, 'once' | 'removeListener' | 'listenerCount'> = process,
    private readonly raise: () => void = () => process.kill(process.pid, 'SIGINT'),
  ) {}

  watch(c: Closable): void {
    if (this.open.size === 0) this.signals.once('SIGINT', this.handler);
    this.open.add(c);
  }

  release(c: Closable): void {
    if (!this.open.delete(c)) return;
    if (this.open.size === 0) this.signals.removeListener('SIGINT', this.handler);
  }

  async shutdown(): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    await Promise.allSettled(all.map((c) => c.close()));
    if (this.signals.listenerCount('SIGINT') === 0) this.raise();
  }
}

/** The process-wide instance loaders register with. @internal */
export const sigintShutdown = new SigintShutdown();
