import { recommendAdaptiveBatch } from './adaptive-batch-recommendation';
import { recommendStrategy } from './strategy-recommendation';

// maou's `_build_strategy_recommendation`, worked by hand: ratio = CBS ÷ physical batch (the largest tested, 256).
const at = (cbs: number, exceeds = false) =>
  recommendStrategy(cbs, exceeds, recommendAdaptiveBatch(cbs, [64, 128, 256], 1_000_000)!);

describe('recommendStrategy (maou --estimate-cbs strategy guide)', () => {
  it('given CBS 2048 on 256 (ratio 8 ≥ 4), then adaptive batch with a fixed learning rate', () => {
    const s = at(2048);
    expect({ r: s.recommendation, ratio: s.cbs_to_physical_ratio }).toEqual({ r: 'adaptive_batch', ratio: 8 });
    expect(s.summary_lines[0]).toBe('Use --adaptive-batch with a fixed learning rate (no --lr-scheduler).');
  });

  it('given a CBS beyond the tested sizes, then adaptive batch whatever the ratio', () => {
    expect(at(256, true).recommendation).toBe('adaptive_batch');
  });

  it('given CBS 900 on 256 (ratio 3.5), then either: 900 // 256 = 3 rounds to 4 steps in log space, effective 1024', () => {
    const s = at(900);
    expect({ r: s.recommendation, ratio: s.cbs_to_physical_ratio }).toEqual({ r: 'either', ratio: 3.5 });
    expect(s.summary_lines[1]).toBe(
      '[A] adaptive batch, no schedule: --batch-size 256 --adaptive-batch --adaptive-batch-min-steps 4 --adaptive-batch-max-steps 8 (follows the noise; no LR schedule)',
    );
    expect(s.summary_lines.slice(2)).toEqual([
      '[B] fixed accumulation with a schedule: --gradient-accumulation-steps 4 --lr-scheduler warmup_cosine_decay',
      '    (effective batch 1024; warm-up and decay, but the batch does not follow the CBS as it moves)',
    ]);
  });

  it('given CBS 700 on 256 (ratio 2.7), then either with 2 fixed steps (700 // 256 = 2), effective 512', () => {
    const s = at(700);
    expect({ r: s.recommendation, ratio: s.cbs_to_physical_ratio }).toEqual({ r: 'either', ratio: 2.7 });
    expect(s.summary_lines[2]).toContain('--gradient-accumulation-steps 2 --lr-scheduler warmup_cosine_decay');
    expect(s.summary_lines[3]).toContain('effective batch 512');
  });

  it('given CBS 300 on 256 (ratio 1.2 < 2), then an LR schedule at the fixed batch', () => {
    const s = at(300);
    expect({ r: s.recommendation, ratio: s.cbs_to_physical_ratio }).toEqual({ r: 'lr_scheduler', ratio: 1.2 });
    expect(s.summary_lines[0]).toBe('Use --lr-scheduler warmup_cosine_decay at a fixed batch size.');
  });
});
