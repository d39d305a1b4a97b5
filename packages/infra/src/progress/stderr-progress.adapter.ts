import type { ClockPort, ProgressPort, ProgressStart, ProgressTask } from '@maou/bench-use-cases';
import { barLine, finalLine, plainLine, type ProgressSnapshot } from './progress-line';
import { RateMeter } from './rate-meter';

/** The part of a stream progress needs; `process.stderr` fits. @public */
export interface ProgressStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean;
  /** terminal width; 0 or absent (no size known) means 80 */
  readonly columns?: number;
}

/** @public */
export interface StderrProgressOptions {
  readonly clock: ClockPort;
  readonly stream?: ProgressStream;
  /** false shows nothing (e.g. --log-level silent) */
  readonly enabled?: boolean;
  /** at most one plain line per interval when the stream is not a terminal (default 2 s) */
  readonly lineIntervalMs?: number;
  /** bar redraw interval on a terminal (default 100 ms) */
  readonly barIntervalMs?: number;
}

class StreamProgressTask implements ProgressTask {
  private done = 0;
  private finished = false;
  private readonly startMs: number;
  // The first line waits one interval, so a rate is never quoted from a single tiny step.
  private lastDraw: number;
  private readonly meter = new RateMeter();

  constructor(
    private readonly task: ProgressStart,
    private readonly stream: ProgressStream,
    private readonly options: Required<Omit<StderrProgressOptions, 'stream' | 'enabled'>>,
  ) {
    this.startMs = options.clock.now();
    this.lastDraw = this.startMs;
    this.meter.record(this.startMs, 0);
    if (!stream.isTTY)
      stream.write(`${task.label}: started${task.total === null ? '' : ` (${task.total} ${task.unit})`}\n`);
  }

  advance(units = 1): void {
    this.update(this.done + units);
  }

  update(done: number): void {
    if (this.finished) return;
    const now = this.options.clock.now();
    this.done = done;
    this.meter.record(now, done);
    const interval = this.stream.isTTY ? this.options.barIntervalMs : this.options.lineIntervalMs;
    if (now - this.lastDraw < interval) return;
    this.lastDraw = now;
    this.stream.write(
      this.stream.isTTY
        ? `\r${barLine(this.snapshot(now), this.stream.columns || 80)}\x1b[K`
        : `${plainLine(this.snapshot(now))}\n`,
    );
  }

  finish(outcome: 'done' | 'failed' = 'done'): void {
    if (this.finished) return;
    this.finished = true;
    const line = finalLine(this.snapshot(this.options.clock.now()), outcome);
    this.stream.write(this.stream.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }

  private snapshot(now: number): ProgressSnapshot {
    const rate = this.meter.perSecond();
    return { task: this.task, done: this.done, elapsedMs: now - this.startMs, rate };
  }
}

const SILENT_TASK: ProgressTask = { advance: () => undefined, update: () => undefined, finish: () => undefined };

/**
 * Progress on stderr: a redrawn bar with rate and ETA on a terminal, throttled plain lines otherwise,
 * so piped output (`--json | jq`) stays clean and CI logs stay short.
 * @public
 */
export class StderrProgressAdapter implements ProgressPort {
  private readonly stream: ProgressStream;

  constructor(private readonly options: StderrProgressOptions) {
    this.stream = options.stream ?? process.stderr;
  }

  start(task: ProgressStart): ProgressTask {
    if (this.options.enabled === false) return SILENT_TASK;
    return new StreamProgressTask(task, this.stream, {
      clock: this.options.clock,
      lineIntervalMs: this.options.lineIntervalMs ?? 2000,
      barIntervalMs: this.options.barIntervalMs ?? 100,
    });
  }
}
