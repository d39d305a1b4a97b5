import {
  assessRun,
  decideStop,
  limitReached,
  runSeries,
  summarizeContention,
  type BatchTiming,
  type EpochEstimate,
  type RunAssessment,
  type RunSeries,
  type StopContext,
  type StopReason,
  type StoppingRule,
  type MachineProfile,
  type FileBoundaryPlan,
} from '@maou/bench-domain';

/** Share of the batches run after which the stopping rule next judges the run. */
const ASSESS_EVERY = 0.02;

/**
 * Watches a training pass batch by batch: with a stopping rule, asks whether the epoch prediction is steady and
 * precise enough (or the cap or the time budget is reached); at the end, judges the batches once more for the report.
 */
export class StopWatch {
  private reason: StopReason | null = null;
  private elapsedMs = 0;
  private nextAssessment = 0;

  constructor(
    private readonly rule: StoppingRule | null,
    private readonly run: {
      readonly warmup: number;
      readonly planned: number;
      readonly batchesPerEpoch: number;
      /** this machine's earlier runs (the run-to-run term and the fall), or null */
      readonly machine?: MachineProfile | null;
      /** the pass's file reads (streaming), so the boundaries ahead count; null or absent: none mid-pass */
      readonly files?: FileBoundaryPlan | null;
    },
    /** the domain's judgement of the batches so far; a spec counts its calls */
    private readonly assess: typeof assessRun = assessRun,
  ) {}

  /**
   * The cap, the budget and the epoch's end are checked after every batch; the assessment, whose cost grows with the
   * batches run (0.4–0.6 ms a batch after 1,100–1,400 of them), after every batch early on and then every 2 % of the
   * batches run, so that the rule's own work stays a small, constant share of the run. It also peeks less: a
   * half-width that dips under the target for a batch or two is less often taken for precision.
   */
  shouldStop(timings: readonly BatchTiming[], elapsedMs: number): boolean {
    if (!this.rule) return false;
    const n = timings.length;
    const ctx: StopContext = {
      batches: n,
      batchesPerEpoch: this.run.batchesPerEpoch,
      cap: this.run.planned,
      elapsedMs,
      budgetMs: this.rule.timeBudgetMs,
      targetPrecision: this.rule.targetPrecision,
      minBatches: this.run.warmup + 2,
    };
    if (n < this.nextAssessment && !limitReached(ctx)) return false;
    this.nextAssessment = n + Math.max(1, Math.floor(n * ASSESS_EVERY));
    const a = this.assess(runSeries(timings), this.options());
    this.reason = decideStop(a, ctx);
    this.elapsedMs = elapsedMs;
    return this.reason !== null;
  }

  private options(): Parameters<typeof assessRun>[1] {
    return {
      minWarmup: this.run.warmup,
      batchesPerEpoch: this.run.batchesPerEpoch,
      machine: this.run.machine ?? null,
      files: this.run.files ?? null,
    };
  }

  conclude(raw: readonly BatchTiming[]): {
    assessment: RunAssessment;
    /** the batches as judged (disturbed ones flagged), for the machine's record */
    series: RunSeries;
    timings: BatchTiming[];
    epochExtras: Partial<EpochEstimate>;
  } {
    const series = runSeries(raw);
    const assessment = assessRun(series, this.options());
    const timings = raw.map((t, i) => ({
      ...t,
      warmup: i < assessment.steadyStart,
      ...(t.cpu ? { disturbed: series.disturbed[i]! } : {}),
    }));
    const reason = this.reason ?? (raw.length >= this.run.batchesPerEpoch ? 'epoch-complete' : 'max-batches');
    const elapsed = this.reason ? this.elapsedMs : raw.reduce((s, t) => s + t.wallMs, 0);
    const notes = [...assessment.notes];
    if (reason === 'time-budget')
      notes.push(
        `the time budget (${((this.rule?.timeBudgetMs ?? 0) / 1000).toFixed(0)} s) ran out before the interval reached ±${((this.rule?.targetPrecision ?? 0) * 100).toFixed(1)} %: the answer is less precise than asked${
          assessment.wander && assessment.basis.runToRun >= (this.rule?.targetPrecision ?? 0)
            ? `; this machine's own wander (±${(assessment.basis.runToRun * 100).toFixed(1)} % over ${assessment.wander.windowS} s windows) is wider than the target by itself, so no run this long can reach it here: a quieter machine, or a longer budget, can`
            : ''
        }`,
      );
    if (
      reason === 'max-batches' &&
      this.rule &&
      this.rule.targetPrecision > 0 &&
      assessment.halfWidthFraction > this.rule.targetPrecision
    )
      notes.push(
        `the batch cap (--max-batches ${this.run.planned}) came before the interval reached ±${(this.rule.targetPrecision * 100).toFixed(1)} %: it cost precision, ±${(assessment.halfWidthFraction * 100).toFixed(1)} % instead; without --max-batches the stopping rule decides, within the ${(this.rule.timeBudgetMs / 1000).toFixed(0)} s budget`,
      );
    const contention = summarizeContention(series.wallMs, series.cpu, series.disturbed);
    return {
      assessment,
      series,
      timings,
      epochExtras: {
        notes,
        contention,
        stopping: {
          reason,
          target_precision: this.rule?.targetPrecision ?? null,
          time_budget_ms: this.rule?.timeBudgetMs ?? null,
          time_to_answer_ms: elapsed,
          batches: raw.length,
        },
      },
    };
  }
}
