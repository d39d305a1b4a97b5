import type { ClockPort, SourceIoStats } from '@maou/bench-use-cases';

/**
 * Counts what a cloud source moved: objects and bytes fetched over the network, retries, cache hits,
 * the time from the first request to the first byte, and aggregate throughput (bytes over the span from the first request to the last transfer).
 * @internal
 */
export class IoStatsRecorder {
  private objects = 0;
  private bytes = 0;
  private retries = 0;
  private cacheHits = 0;
  private firstRequestAt: number | null = null;
  private firstByteAt: number | null = null;
  private lastEndAt: number | null = null;

  constructor(
    private readonly source: string,
    private readonly clock: ClockPort,
  ) {}

  /** Marks the start of a transfer; returns its start time for {@link finishTransfer}. */
  startTransfer(): number {
    const t = this.clock.now();
    if (this.firstRequestAt === null) this.firstRequestAt = t;
    return t;
  }

  firstByte(): void {
    if (this.firstByteAt === null) this.firstByteAt = this.clock.now();
  }

  finishTransfer(startedAt: number, bytes: number): void {
    this.objects += 1;
    this.bytes += bytes;
    // the span from the first request to the last finished transfer gives the aggregate rate of parallel downloads
    this.lastEndAt = Math.max(this.lastEndAt ?? startedAt, this.clock.now());
  }

  retry(): void {
    this.retries += 1;
  }
  cacheHit(): void {
    this.cacheHits += 1;
  }

  snapshot(): SourceIoStats {
    const ttfb =
      this.firstRequestAt !== null && this.firstByteAt !== null ? this.firstByteAt - this.firstRequestAt : null;
    const span = this.firstRequestAt !== null && this.lastEndAt !== null ? this.lastEndAt - this.firstRequestAt : 0;
    const mbps = this.bytes > 0 && span > 0 ? this.bytes / 1_048_576 / (span / 1000) : null;
    return {
      source: this.source,
      objects: this.objects,
      bytes: this.bytes,
      timeToFirstByteMs: ttfb,
      megabytesPerSecond: mbps,
      retries: this.retries,
      cacheHits: this.cacheHits,
    };
  }
}
