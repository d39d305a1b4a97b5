import {
  adaptiveEpochCorrection,
  adaptiveSettingsBlock,
  advanceAdaptiveBatch,
  maouNoiseScale,
  measuresNextCycle,
  startAdaptiveBatch,
  stepsChosen,
  type AdaptiveBatchCycle,
  type AdaptiveBatchReport,
  type AdaptiveBatchSettings,
  type AdaptiveBatchState,
  type BatchTiming,
} from '@maou/bench-domain';
import type { MonotonicClock, StepResult, Trainer } from '@maou/bench-engine/contracts';

/**
 * maou's adaptive batch around a trainer: before every cycle it plans the accumulation steps the controller holds (and
 * whether to measure the gradients, every `measurementInterval` optimiser steps); after every optimiser step it feeds
 * the cycle's noise scale to the controller. Steps pass through, so the training pass times them as any others.
 * @internal
 */
export class AdaptiveBatchTrainer implements Trainer {
  readonly upload?: Trainer['upload'];
  readonly ready?: Trainer['ready'];
  readonly profiledStep?: Trainer['profiledStep'];
  private state: AdaptiveBatchState;
  private measuring = false;
  private readonly cycles: AdaptiveBatchCycle[] = [];
  private batches = 0;
  private cycleStart = 0;

  constructor(
    private readonly inner: Trainer,
    private readonly settings: AdaptiveBatchSettings,
    private readonly physicalBatch: number,
  ) {
    if (!inner.planCycle)
      throw new Error("--adaptive-batch: this backend's trainer cannot change its accumulation steps");
    this.state = startAdaptiveBatch(settings);
    this.planNext();
    if (inner.upload) this.upload = (b, use) => inner.upload!(b, use);
    if (inner.ready) this.ready = () => inner.ready!();
    if (inner.profiledStep)
      this.profiledStep = async (b, clock, index) => {
        const r = await inner.profiledStep!(b, clock, index);
        this.observe(r.result);
        return r;
      };
  }

  get stage(): Trainer['stage'] {
    return this.inner.stage;
  }
  get parameterCount(): number {
    return this.inner.parameterCount;
  }
  get trainableParameterCount(): number | undefined {
    return this.inner.trainableParameterCount;
  }
  get multiplyAddsPerSample(): number {
    return this.inner.multiplyAddsPerSample;
  }

  async step(batch: Parameters<Trainer['step']>[0], clock: MonotonicClock): Promise<StepResult> {
    const r = await this.inner.step(batch, clock);
    this.observe(r);
    return r;
  }

  evaluate(...args: Parameters<Trainer['evaluate']>): ReturnType<Trainer['evaluate']> {
    return this.inner.evaluate(...args);
  }

  currentLearningRate(): number {
    return this.inner.currentLearningRate();
  }

  dispose(): void {
    this.inner.dispose();
  }

  /** The report block, with the epoch correction from the run's timings once they are judged. */
  report(timings: readonly BatchTiming[], steadyStart: number, batchesPerEpoch: number): AdaptiveBatchReport {
    const s = this.settings;
    const notes: string[] = [];
    if (this.cycles.length < s.interval)
      notes.push(
        `${this.cycles.length} optimiser steps ran, fewer than the adjustment interval (${s.interval}): the steps stayed at ${s.minSteps}; lower --adaptive-batch-interval or run more batches to see them change`,
      );
    return {
      settings: adaptiveSettingsBlock(s),
      physical_batch_size: this.physicalBatch,
      steps_chosen: stepsChosen(this.cycles, s.minSteps),
      cycles: this.cycles,
      optimizer_steps: this.state.optimizerSteps,
      final_accumulation_steps: this.state.steps,
      smoothed_noise_scale: this.state.smoothedNoiseScale,
      epoch: adaptiveEpochCorrection(timings, steadyStart, batchesPerEpoch, this.state.steps),
      notes,
    };
  }

  private planNext(): void {
    this.measuring = measuresNextCycle(this.state, this.settings);
    this.inner.planCycle!({ accumulationSteps: this.state.steps, measureGradientNorms: this.measuring });
  }

  private observe(r: StepResult): void {
    const index = this.batches++;
    if (!r.accumulation?.optimizerStep) return;
    const reading = this.measuring && r.gradientNorms ? maouNoiseScale(r.gradientNorms) : null;
    this.state = advanceAdaptiveBatch(this.state, this.settings, this.physicalBatch, reading?.bNoise ?? null);
    this.cycles.push({
      optimizer_step: this.state.optimizerSteps,
      first_batch: this.cycleStart,
      accumulation_steps: r.accumulation.steps,
      measured: this.measuring,
      noise_scale: reading?.bNoise ?? null,
      low_noise: reading?.lowNoise ?? false,
      smoothed_noise_scale: this.state.smoothedNoiseScale,
      next_accumulation_steps: this.state.steps,
    });
    this.cycleStart = index + 1;
    this.planNext();
  }
}
