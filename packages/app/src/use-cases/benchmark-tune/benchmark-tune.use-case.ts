import { inject, injectable } from 'tsyringe';
import {
  applyChange,
  applyChanges,
  compareLegs,
  legOf,
  legsSamplesPerSecond,
  planTuneLegs,
  tuneCandidates,
  TUNE_LEGS,
  tuneWinners,
  type BenchmarkConfig,
  type BenchmarkTrainingReport,
  type Result,
  type TuneCandidate,
  type TuneChange,
  type TuneReport,
  type TuneSkipped,
} from '@maou/bench-domain';
import type { TrainerFactory } from '@maou/bench-engine/contracts';
import type { ClockPort } from '../../ports/clock.port';
import type { DataLoaderFactoryPort } from '../../ports/data-loader.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ProgressPort, ProgressTask } from '../../ports/progress.port';
import { TOKENS } from '../../ports/tokens';
import type { BenchmarkTrainingError } from '../benchmark-training/benchmark-training.errors';
import { BenchmarkTrainingUseCase, type TrainingSession } from '../benchmark-training/benchmark-training.use-case';
import { measureGradientNoise } from '../batch-study/gradient-noise-pass';
import { during, settleSteps, StepFailure } from '../step-failure';
import type { BenchmarkTuneInput } from './benchmark-tune.input';
import { sideOf, TuneLegs } from './tune-legs';
import { judge, notTried, type Measured } from './tune-verdicts';

/** The probe's share of the budget (its length within a leg's). */
const PROBE_SHARE = 0.08;
/** Steps of the untimed gradient-noise pass that measures the critical batch size when batch sizes are allowed. */
const NOISE_STEPS = 20;

/**
 * "Which of the advised changes really help here?" A probe run of the user's configuration names the candidates (its
 * recommendations, and the settings that change speed without changing what is trained); each is measured against
 * the configuration in legs interleaved in one process (A B1 … Bn, Bn … B1 A, as long as the budget allows), every
 * leg a whole `benchmark-training` run, and judged by `benchmark-compare`'s test against the machine's wander. The
 * winners are combined and the combination measured against the configuration the same way.
 * @public
 */
@injectable()
export class BenchmarkTuneUseCase {
  constructor(
    @inject(BenchmarkTrainingUseCase) private readonly training: BenchmarkTrainingUseCase,
    @inject(TOKENS.DataLoaderFactory) private readonly loaders: DataLoaderFactoryPort,
    @inject(TOKENS.TrainerFactory) private readonly createTrainer: TrainerFactory,
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
    @inject(TOKENS.Progress) private readonly progress: ProgressPort,
  ) {}

  async execute(input: BenchmarkTuneInput): Promise<Result<TuneReport, BenchmarkTrainingError>> {
    // the budget counts from here: opening the datasource is part of the tune's wall time
    const t0 = this.clock.now();
    const opened = await this.training.openSession(input.config);
    if (!opened.ok) return opened;
    return settleSteps(() => this.run(opened.value, input, t0));
  }

  private async run(session: TrainingSession, input: BenchmarkTuneInput, t0: number): Promise<TuneReport> {
    const log = this.logger.child({ useCase: 'benchmark-tune' });
    const deadline = t0 + input.budgetMs;
    const legs = new TuneLegs(this.training, session, input, this.clock);
    const notes: string[] = [];

    const probeMs = clamp(input.budgetMs * PROBE_SHARE, TUNE_LEGS.minMs, TUNE_LEGS.maxMs);
    const probeTask = this.progress.start({ label: 'tune: probe run of the configuration', total: 1, unit: 'legs' });
    const probe = await this.baseline(legs.run(input.config, probeMs), probeTask);
    probeTask.finish();
    const overhead = legs.startupOf(input.config) ?? 0;
    const cores = input.resourceLimits?.cpu_cores ?? probe.environment.cpus;
    const criticalBatch = input.allow.includes('batch-size') ? await this.criticalBatch(session, input, notes) : null;
    const listed = tuneCandidates({
      config: input.config,
      started: { backend: probe.environment.backend, threads: probe.environment.threads, cores },
      recommendations: probe.recommendations,
      backends: input.backends,
      allow: input.allow,
      criticalBatch,
      files: typeof probe.data_load_method.shards === 'number' ? probe.data_load_method.shards : undefined,
    });
    const { tried, skipped } = await this.startable(legs, input, listed);
    log.info({ candidates: tried.map((c) => `${c.flag} ${c.value}`) }, 'tune candidates');

    const remaining = deadline - this.clock.now();
    const plan = planTuneLegs(
      tried,
      { shares: probe.training_metrics.phase_share, threads: probe.environment.threads, overheadMs: overhead },
      remaining,
    );
    const n = plan.measure.length;
    const { legMs, legCostMs: cost } = plan;
    if (plan.notTried.length)
      log.warn({ notTried: plan.notTried.map((x) => flagText(x.candidate)) }, 'tune budget too short for every change');
    if (n === 0 && tried.length)
      notes.push(
        `the budget left ${(remaining / 1000).toFixed(0)} s after the probe, too little for one change at two legs a side and its verification: nothing was tried; about ${Math.ceil((this.clock.now() - t0 + (2 * 2 + 4) * (TUNE_LEGS.minMs + overhead)) / 1000)} s would fit one`,
      );
    const a: BenchmarkTrainingReport[] = [];
    const measured: Measured[] = plan.measure.map((candidate) => ({ candidate, reports: [] }));
    // what a leg of a configuration costs, as its legs so far measured it (the probe's start-up before the first)
    const legCost = (config: BenchmarkConfig): number => legMs + (legs.startupOf(config) ?? overhead);
    const running = () =>
      measured.filter((m) => m.failed === undefined).map((m) => applyChange(input.config, m.candidate));
    // another round A B1 … Bn … B1 A, and the verification's A C C A after it (C as dear as the dearest B)
    const roundAndVerification = (): number =>
      4 * legCost(input.config) +
      2 * running().reduce((s, c) => s + legCost(c), 0) +
      2 * Math.max(0, ...running().map(legCost));
    if (n > 0) {
      const pairs = Math.max(
        1,
        Math.floor((remaining * 2 * (n + 1)) / (2 * (n + 1) + TUNE_LEGS.verify) / (2 * (n + 1) * cost)),
      );
      const task = this.progress.start({
        label: `tune: ${n} change(s) against the configuration`,
        total: pairs * 2 * (n + 1),
        unit: 'legs',
      });
      // A B1 … Bn, then Bn … B1 A: each side's mean position in the run is the same, so a drift cancels.
      for (let p = 0; p === 0 || (p < pairs && this.clock.now() + roundAndVerification() <= deadline); p++) {
        a.push(await this.baseline(legs.run(input.config, legMs), task));
        for (const m of measured) await this.candidateLeg(legs, input, m, legMs, task);
        for (const m of [...measured].reverse()) await this.candidateLeg(legs, input, m, legMs, task);
        a.push(await this.baseline(legs.run(input.config, legMs), task));
      }
      task.finish();
    }
    // in the candidates' order, each measured or said why not
    const changes = tried.map((c) => {
      const m = measured.find((x) => x.candidate === c);
      return m ? judge(m, a) : notTried(c, plan.notTried.find((x) => x.candidate === c)!.why);
    });
    const winners = tuneWinners(changes);
    const verification = winners.length
      ? await this.verify(legs, input, winners, legMs, { legCost, deadline, slack: cost }, notes)
      : null;
    const speedWinners = winners.some((w) => tried.find((c) => c.flag === w.flag)?.kind !== 'measurement');
    const verified = verification !== null && (!speedWinners || verification.comparison.significant);
    if (verification && !verified)
      notes.push(
        `the combination (${winners.map(flagText).join(' ')}) did not measure faster than the configuration when verified: nothing is claimed`,
      );
    const final = verified ? winners : [];
    const baseSide = verification ? verification.a : a.length ? a : [probe];
    const finalSide = verified && verification ? verification.c : baseSide;
    if (this.clock.now() > deadline + cost)
      notes.push(
        `the tune took ${((this.clock.now() - t0) / 1000).toFixed(0)} s of a ${(input.budgetMs / 1000).toFixed(0)} s budget: its legs took longer than the probe's start-up and the planned training time`,
      );
    const figures = verification?.comparison;
    return {
      schema_version: 1,
      kind: 'benchmark-tune',
      created_at: this.clock.wallTime().toISOString(),
      budget_s: input.budgetMs / 1000,
      elapsed_s: (this.clock.now() - t0) / 1000,
      leg_s: n > 0 ? cost / 1000 : null,
      baseline: sideOf(baseSide, legsSamplesPerSecond(baseSide.map(legOf))),
      final: {
        ...sideOf(finalSide, legsSamplesPerSecond(finalSide.map(legOf))),
        changes: final,
        verification: figures
          ? {
              gain: figures.gain,
              interval: figures.interval,
              significant: figures.significant,
              verdict: figures.verdict,
              wander_band: figures.wander_band,
              legs: figures.legs,
              p_value: figures.comparison.p_value,
            }
          : null,
      },
      changes,
      skipped,
      command: input.commandLine(final),
      environment: { backend: probe.environment.backend, threads: probe.environment.threads, cpus: cores },
      notes,
    };
  }

  /**
   * The candidates without the backends that do not start here (an optional package not installed, no adapter):
   * each is started once, as its legs would start it, and one that fails is left out with its error as the reason.
   */
  private async startable(
    legs: TuneLegs,
    input: BenchmarkTuneInput,
    { tried, skipped }: { tried: TuneCandidate[]; skipped: TuneSkipped[] },
  ): Promise<{ tried: TuneCandidate[]; skipped: TuneSkipped[] }> {
    const kept: TuneCandidate[] = [];
    const left: TuneSkipped[] = [];
    for (const c of tried) {
      const started = c.flag === '--gpu' ? await legs.activate(applyChange(input.config, c).compute) : null;
      if (started && !started.ok)
        left.push({ flag: c.flag, value: c.value, why: `it does not start here: ${started.error.message}` });
      else kept.push(c);
    }
    return { tried: kept, skipped: [...skipped, ...left] };
  }

  /** A baseline leg must run: without it there is nothing to compare against. */
  private async baseline(
    leg: Promise<Result<BenchmarkTrainingReport, BenchmarkTrainingError>>,
    task: ProgressTask,
  ): Promise<BenchmarkTrainingReport> {
    const r = await leg;
    task.advance();
    if (!r.ok) throw new StepFailure(r.error);
    return r.value;
  }

  /** A candidate's leg; a candidate that fails (a backend that does not start) is a result, and runs no more legs. */
  private async candidateLeg(
    legs: TuneLegs,
    input: BenchmarkTuneInput,
    m: Measured,
    legMs: number,
    task: ProgressTask,
  ): Promise<void> {
    if (m.failed !== undefined) return task.advance();
    const r = await legs.run(applyChange(input.config, m.candidate), legMs);
    task.advance();
    if (r.ok) m.reports.push(r.value);
    else {
      m.failed = `${r.error.kind}: ${r.error.message}`;
      this.logger
        .child({ useCase: 'benchmark-tune' })
        .warn({ change: flagText(m.candidate), reason: m.failed }, 'tune candidate failed; the tune goes on');
    }
  }

  /**
   * The winners together against the configuration: A C C A, again while another round ends by the deadline. None,
   * said in a note, when even the first would end more than `slack` (a leg) past it: nothing unverified is claimed.
   */
  private async verify(
    legs: TuneLegs,
    input: BenchmarkTuneInput,
    winners: readonly TuneChange[],
    legMs: number,
    budget: {
      readonly legCost: (config: BenchmarkConfig) => number;
      readonly deadline: number;
      readonly slack: number;
    },
    notes: string[],
  ) {
    const combined = applyChanges(input.config, winners);
    // the combination costs what its own legs did, or before them as much as the dearest of its changes
    const round = (): number =>
      2 * budget.legCost(input.config) +
      2 *
        (legs.startupOf(combined) === null
          ? Math.max(...winners.map((w) => budget.legCost(applyChange(input.config, w))))
          : budget.legCost(combined));
    if (this.clock.now() + round() > budget.deadline + budget.slack) {
      notes.push(
        `no time was left to verify ${winners.map(flagText).join(' ')} against the configuration (four legs, about ${(round() / 1000).toFixed(0)} s): nothing is claimed`,
      );
      return null;
    }
    const task = this.progress.start({
      label: `tune: verifying ${winners.map(flagText).join(' ')}`,
      total: Math.max(4, 4 * Math.floor((budget.deadline - this.clock.now()) / round())),
      unit: 'legs',
    });
    const a: BenchmarkTrainingReport[] = [];
    const c: BenchmarkTrainingReport[] = [];
    for (let p = 0; p === 0 || this.clock.now() + round() <= budget.deadline; p++) {
      a.push(await this.baseline(legs.run(input.config, legMs), task));
      for (let i = 0; i < 2; i++) c.push(await this.baseline(legs.run(combined, legMs), task));
      a.push(await this.baseline(legs.run(input.config, legMs), task));
    }
    task.finish();
    return { a, c, comparison: compareLegs(a.map(legOf), c.map(legOf)) };
  }

  /** B_simple's lower end, from an untimed pass of gradient norms: batches up to it train as well per sample. */
  private async criticalBatch(
    session: TrainingSession,
    input: BenchmarkTuneInput,
    notes: string[],
  ): Promise<number | null> {
    const task = this.progress.start({ label: 'tune: critical batch size (gradient noise)', total: 1, unit: 'stage' });
    const noise = await during('training-failed', () =>
      measureGradientNoise(
        { loaders: this.loaders, createTrainer: this.createTrainer },
        session,
        input.config,
        NOISE_STEPS,
      ),
    );
    task.advance();
    task.finish();
    const lower = noise?.b_simple === null || !noise ? null : noise.b_simple_ci95[0];
    if (lower === null) notes.push(`no critical batch size: ${noise?.note ?? 'no update had two pieces to measure'}`);
    return lower;
  }
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const flagText = (c: TuneChange): string => `${c.flag} ${c.value}`;
