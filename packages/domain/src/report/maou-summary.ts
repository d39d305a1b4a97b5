import type { MaouMetrics } from './maou-payload';

const f = (x: number, digits: number): string => x.toFixed(digits);
const GIB = 1024 ** 3;

/** maou's text block for one pass (`Summary` / `ValidationSummary`), in its layout and precision. @public */
export const maouSummary = (title: string, m: MaouMetrics, loaderBatches: number, estimatedSeconds: number): string => {
  const pct = (x: number): string =>
    `${f(m.actual_average_batch_time > 0 ? (100 * x) / m.actual_average_batch_time : 0, 1)}%`;
  const part = (label: string, x: number): string => `  - ${label}: ${f(x, 4)}s (${pct(x)})`;
  const lines = [
    `${title}:`,
    `  Processed Batches: ${m.total_batches} / ${loaderBatches}`,
    `  Total Time (Processed): ${f(m.total_epoch_time, 2)}s`,
    `  Warmup: ${m.warmup_batches} batches in ${f(m.warmup_time, 2)}s`,
    `  Measured: ${m.measured_batches} batches in ${f(m.measured_time, 2)}s`,
    `  Estimated Full Epoch Time: ${f(estimatedSeconds, 2)}s (${f(estimatedSeconds / 60, 2)} minutes)`,
    `  Actual Average Time per Batch: ${f(m.actual_average_batch_time, 4)}s`,
    `  Processing Time per Batch (excl. data loading): ${f(m.average_batch_time, 4)}s`,
    `  Samples per Second: ${f(m.samples_per_second, 1)}`,
    `  Batches per Second: ${f(m.batches_per_second, 2)}`,
    '',
    '  Detailed Timing Breakdown (per batch, warmup excluded):',
    part('Data Loading', m.data_loading_time),
    part('GPU Transfer', m.gpu_transfer_time),
    part('Forward Pass', m.forward_pass_time),
    part('Loss Computation', m.loss_computation_time),
    part('Backward Pass', m.backward_pass_time),
    part('Optimizer Step', m.optimizer_step_time),
    part('Unaccounted', m.unaccounted_time),
    '',
    '  Loss Information:',
    `  - Final Loss: ${f(m.final_loss, 6)}`,
    `  - Average Loss: ${f(m.average_loss, 6)}`,
  ];
  if (m.resource_cpu_max_percent !== undefined) {
    lines.push(
      '',
      '  Resource Usage Summary:',
      `  - CPU Max Usage: ${f(m.resource_cpu_max_percent, 1)}%`,
      `  - Memory Max Usage: ${f((m.resource_memory_max_bytes ?? 0) / GIB, 1)}GB (${f(m.resource_memory_max_percent ?? 0, 1)}%)`,
    );
    if (m.resource_gpu_max_percent !== undefined)
      lines.push(
        `  - GPU Usage: max ${f(m.resource_gpu_max_percent, 1)}%, avg ${f(m.resource_gpu_avg_percent ?? 0, 1)}%`,
      );
  }
  return lines.join('\n');
};

/** maou's `Recommendations` string. @public */
export const maouRecommendations = (messages: readonly string[]): string =>
  [
    'Performance Recommendations:',
    ...(messages.length ? messages : ['No significant bottlenecks detected']).map((m) => `- ${m}`),
  ].join('\n');
