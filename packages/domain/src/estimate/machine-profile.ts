import { parseWanderProfile, type WanderProfile } from './machine-wander';
import { emptyFall, parseFallProfile, type FallProfile } from './residual-fall';

/**
 * What this machine's earlier runs showed that a look cannot see in its own batches: how its speed wanders over
 * windows of seconds (the run-to-run term) and how the rest of a run went after a look of some length (the fall).
 * @public
 */
export interface MachineProfile {
  readonly version: 2;
  readonly wander: WanderProfile;
  readonly fall: FallProfile;
}

/**
 * A stored record, or null when `value` is not one (a hand edit, a format this version does not know): the run then
 * assumes both terms. A version 1 record (the wander alone) is read with no fall measured yet.
 * @public
 */
export const parseMachineProfile = (value: unknown): MachineProfile | null => {
  const v = value as { version?: unknown; wander?: unknown; fall?: unknown } | null;
  if (v?.version === 1) {
    const wander = parseWanderProfile(v);
    return wander ? { version: 2, wander, fall: emptyFall() } : null;
  }
  if (v?.version !== 2) return null;
  const wander = parseWanderProfile(v.wander);
  const fall = parseFallProfile(v.fall);
  return wander && fall ? { version: 2, wander, fall } : null;
};
