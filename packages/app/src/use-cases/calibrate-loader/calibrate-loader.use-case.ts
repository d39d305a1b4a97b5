import { inject, injectable } from 'tsyringe';
import { isOutOfMemoryMessage, quantileSorted } from '@maou/bench-domain';
import { measureLoader } from '../../loader/measure-loader';
import type { CalibrationStorePort } from '../../ports/calibration-store.port';
import type { ClockPort } from '../../ports/clock.port';
import type { DataLoaderFactoryPort, DataLoaderPort } from '../../ports/data-loader.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ProgressPort } from '../../ports/progress.port';
import { TOKENS } from '../../ports/tokens';
import { CalibrationFailedError } from './calibrate-loader.errors';
import type {
  CalibrateLoaderInput,
  CalibrateLoaderOutput,
  CalibrationChoice,
  CandidateResult,
} from './calibrate-loader.input';
import { calibrationCandidates, type Candidate } from './calibration-candidates';
import { parseRecord, signatureKey, type CalibrationRecord } from './calibration-record';

/** A candidate this much slower than the best so far is dropped after a few batches (the seed's ≥ 15 % rule). */
const EARLY_STOP_SLOWER = 0.15;
const EARLY_STOP_AFTER_BATCHES = 3;
/** Rates within this margin count as a tie, and the cheaper setting wins. */
const TIE_MARGIN = 0.05;

const isOutOfMemory = (e: unknown): boolean =>
  e instanceof Error && isOutOfMemoryMessage(`${e.message} ${(e as { code?: string }).code ?? ''}`);
const kv = (o: object): string =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/**
 * Measures a few loader settings within a time budget and keeps the fastest (the cheaper one on a tie), caching it
 * under an environment signature with a TTL. A cached result is used only when the signature matches and it is fresh.
 * @public
 */
@injectable()
export class CalibrateLoaderUseCase {
  constructor(
    @inject(TOKENS.DataLoaderFactory) private readonly loaders: DataLoaderFactoryPort,
    @inject(TOKENS.CalibrationStore) private readonly store: CalibrationStorePort,
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
    @inject(TOKENS.Progress) private readonly progress: ProgressPort,
  ) {}

  async execute(input: CalibrateLoaderInput): Promise<CalibrateLoaderOutput> {
    const log = this.logger.child({ module: 'calibrate-loader' });
    const base = input.base;
    if (input.mode === 'off') {
      return {
        origin: 'off',
        choice: {
          workers: base.workers,
          prefetchFactor: base.prefetchFactor,
          batchSize: base.batchSize,
          samplesPerSecond: NaN,
          p95WaitMs: NaN,
        },
        candidates: [],
      };
    }
    const key = signatureKey(input.signature);
    if (input.mode === 'calibrate') {
      const stored = await this.store.load(key);
      if (stored !== null) {
        const record = parseRecord(stored, input.signature, this.clock.wallTime().getTime(), input.ttlMs);
        if (typeof record !== 'string') {
          log.info({ ...record.choice }, `calibration_cache_hit ${kv(record.choice)}`);
          return { origin: 'cache', choice: record.choice, candidates: [] };
        }
        log.warn({ reason: record }, `calibration_cache_ignored reason="${record}"; recalibrating`);
      }
    }
    const candidates = await this.measureAll(input, log);
    const measured = candidates.filter((c) => c.error === null);
    if (measured.length === 0)
      throw new CalibrationFailedError(candidates.map((c) => `workers=${c.workers}: ${c.error}`));
    const choice = pickWinner(measured);
    log.info({ ...choice }, `calibration_winner ${kv(choice)}`);
    const record: CalibrationRecord = {
      signature: input.signature,
      createdAtMs: this.clock.wallTime().getTime(),
      choice,
    };
    await this.store.save(key, record);
    return { origin: 'measured', choice, candidates };
  }

  private async measureAll(input: CalibrateLoaderInput, log: LoggerPort): Promise<CandidateResult[]> {
    const start = this.clock.now();
    const results: CandidateResult[] = [];
    let best = 0;
    const candidates = calibrationCandidates(input);
    const task = this.progress.start({ label: 'loader calibration', total: candidates.length, unit: 'candidates' });
    try {
      for (const c of candidates) {
        // The budget is checked between candidates; the first one always runs so there is an answer.
        if (results.length > 0 && this.clock.now() - start > input.budgetMs) {
          log.info({ budgetMs: input.budgetMs }, `calibration_budget_spent measured=${results.length}`);
          break;
        }
        const r = await this.measureWithBackoff(input, c, best, log);
        if (r.error === null && !r.stoppedEarly) best = Math.max(best, r.samplesPerSecond);
        results.push(r);
        task.advance();
      }
    } catch (e) {
      task.finish('failed');
      throw e;
    }
    task.finish(results.some((r) => r.error === null) ? 'done' : 'failed');
    return results;
  }

  private async measureWithBackoff(
    input: CalibrateLoaderInput,
    c: Candidate,
    best: number,
    log: LoggerPort,
  ): Promise<CandidateResult> {
    let batchSize = c.batchSize;
    for (;;) {
      let loader: DataLoaderPort | null = null;
      try {
        loader = await this.loaders.create(input.source, {
          ...input.base,
          workers: c.workers,
          prefetchFactor: c.prefetchFactor,
          batchSize,
          persistentWorkers: true,
        });
        const m = await measureLoader(loader, {
          batches: input.batchesPerCandidate,
          warmupBatches: 1,
          clock: this.clock,
          stopEarly: (rate, n) => best > 0 && n >= EARLY_STOP_AFTER_BATCHES && rate < best * (1 - EARLY_STOP_SLOWER),
        });
        const sorted = [...m.waitMs].sort((a, b) => a - b);
        const r = {
          workers: c.workers,
          prefetchFactor: c.prefetchFactor,
          batchSize,
          samplesPerSecond: m.samplesPerSecond,
          p95WaitMs: quantileSorted(sorted, 0.95),
          stoppedEarly: m.stoppedEarly,
          error: null,
        };
        log.info({ ...r }, `calibration_candidate ${kv(r)}`);
        return r;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (isOutOfMemory(e) && batchSize > 1) {
          log.warn(
            { batchSize, error: message },
            `calibration_backoff reason=oom batch_size=${batchSize} next=${Math.floor(batchSize / 2)}`,
          );
          batchSize = Math.floor(batchSize / 2);
          continue;
        }
        log.warn(
          { workers: c.workers, error: message },
          `calibration_candidate_failed workers=${c.workers} error="${message}"`,
        );
        return { ...c, batchSize, samplesPerSecond: 0, p95WaitMs: NaN, stoppedEarly: false, error: message };
      } finally {
        await loader?.close();
      }
    }
  }
}

/** Fastest complete candidate; anything within the tie margin of it that costs fewer workers wins instead. */
const pickWinner = (measured: readonly CandidateResult[]): CalibrationChoice => {
  const complete = measured.filter((m) => !m.stoppedEarly);
  const pool = complete.length > 0 ? complete : measured;
  const top = Math.max(...pool.map((m) => m.samplesPerSecond));
  const w = pool
    .filter((m) => m.samplesPerSecond >= top * (1 - TIE_MARGIN))
    .sort((a, b) => a.workers - b.workers || a.prefetchFactor - b.prefetchFactor)[0]!;
  return {
    workers: w.workers,
    prefetchFactor: w.prefetchFactor,
    batchSize: w.batchSize,
    samplesPerSecond: w.samplesPerSecond,
    p95WaitMs: w.p95WaitMs,
  };
};
