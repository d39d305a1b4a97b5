import { toMaouSweepPayload } from './maou-sweep-view';
import type { SweepPointFailed } from './batch-study-report';

const failed = (batch_size: number, reason: string): SweepPointFailed => ({
  status: 'failed',
  batch_size,
  learning_rate: 0.01,
  error_kind: 'training-failed',
  reason,
});

describe("maou's sweep payload", () => {
  it('given points that ran out of wasm heap, GPU memory or the JS heap and one that failed otherwise, then maou lists the first three as OOM and keeps the other with its reason', () => {
    const p = toMaouSweepPayload(
      {
        type: 'batch_size',
        points: [
          // the texts the wasm heap, the planned WebGPU step and V8 raise
          failed(
            4096,
            'the wasm heap (at most 4 GiB per replica) has no room for a 2048 MiB tensor [4096, 256, 9, 9]: lower --batch-size or raise --threads',
          ),
          failed(8192, 'planned webgpu step (batch 8192): out of GPU memory: Out of memory'),
          failed(16384, 'RangeError: Array buffer allocation failed'),
          failed(3, '--batch-size 3: the training split yields no batch'),
        ],
      },
      null,
    );
    expect(p.sweep_type === 'batch_size' && p.oom_batch_sizes).toEqual([4096, 8192, 16384]);
    expect(p.detailed_results).toEqual([
      { sweep_batch_size: 4096, oom: true },
      { sweep_batch_size: 8192, oom: true },
      { sweep_batch_size: 16384, oom: true },
      { sweep_batch_size: 3, oom: false, error: '--batch-size 3: the training split yields no batch' },
    ]);
    expect(p.comparison).toEqual([]);
    expect(p.summary.split('\n').slice(3)).toEqual([
      '',
      'Out of memory at batch sizes: [4096, 8192, 16384]',
      '',
      'Failed at batch size 3: --batch-size 3: the training split yields no batch',
    ]);
  });

  it('given a learning-rate sweep whose points all failed, then no best rate is named and no OOM list is written', () => {
    const p = toMaouSweepPayload({ type: 'learning_rate', points: [failed(8, 'out of memory')] }, null);
    expect(Object.keys(p).sort()).toEqual(['comparison', 'detailed_results', 'summary', 'sweep_type']);
    expect(p.detailed_results).toEqual([{ sweep_learning_rate: 0.01, oom: true }]);
    expect(p.summary).not.toMatch(/Best Learning Rate/);
  });
});
