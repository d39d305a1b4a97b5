import type { FromWorker } from './worker-protocol';

/** How often a worker asks for a missing file again: another worker's page may evict it before it is read. */
const ATTEMPTS = 4;

const isMissing = (e: unknown): boolean =>
  (e as { code?: unknown } | null)?.code === 'ENOENT' ||
  /no such file/i.test(e instanceof Error ? e.message : String(e));

/**
 * A loader worker's reads of shard files that a source may have evicted from its bounded cache (BigQuery pages
 * beyond `--input-max-cached-bytes`): on a missing file it asks the main thread, which owns the source, to bring
 * the file back, then reads again.
 * @internal
 */
export class MaterializeClient {
  private readonly waiting = new Map<string, { resolve: () => void; reject: (e: Error) => void }[]>();

  constructor(private readonly post: (m: FromWorker) => void) {}

  async read<T>(path: string, read: (path: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read(path);
      } catch (e) {
        if (!isMissing(e) || attempt >= ATTEMPTS) throw e;
        await this.ask(path);
      }
    }
  }

  /** The main thread's answer to `materialize`. */
  answer(path: string, error: string | null): void {
    const list = this.waiting.get(path) ?? [];
    this.waiting.delete(path);
    for (const w of list) {
      if (error === null) w.resolve();
      else w.reject(new Error(`${path}: could not be fetched again: ${error}`));
    }
  }

  private ask(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(path);
      if (list) return void list.push({ resolve, reject });
      this.waiting.set(path, [{ resolve, reject }]);
      this.post({ type: 'materialize', path });
    });
  }
}
