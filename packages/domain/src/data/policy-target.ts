import { err, ok, type Result } from '../result';
import type { StageColumns } from './stage-columns';

/**
 * What the Stage 3 policy head learns (maou's `--policy-target-mode`): the played-move distribution (`moveLabel`),
 * the per-move win rates (`moveWinRate`), or their product. Each is normalised per row by the loss.
 * @public
 */
export type PolicyTargetMode = 'move-label' | 'win-rate' | 'weighted';

/** @public */
export const POLICY_TARGET_MODES: readonly PolicyTargetMode[] = ['move-label', 'win-rate', 'weighted'];

/** maou's default (`utility benchmark-training` and `learn-model`). @public */
export const DEFAULT_POLICY_TARGET_MODE: PolicyTargetMode = 'win-rate';

/**
 * Stage 3 columns whose `moveLabel` holds the policy target of `mode` (other stages unchanged). Fails with the name of
 * the column the mode needs when the rows lack it: maou fills zeros there, which trains nothing.
 * @public
 */
export const selectPolicyTarget = (c: StageColumns, mode: PolicyTargetMode): Result<StageColumns, string> => {
  if (c.stage !== 3 || mode === 'move-label') return ok(c);
  const rates = c.moveWinRate;
  if (!rates) return err('moveWinRate');
  if (mode === 'win-rate') return ok({ ...c, moveLabel: rates });
  const product = new Float32Array(rates.length);
  for (let i = 0; i < product.length; i++) product[i] = c.moveLabel[i]! * rates[i]!;
  return ok({ ...c, moveLabel: product });
};
