import type { CalibrationChoice, CalibrationSignature } from './calibrate-loader.input';

/** What the store keeps per signature. @internal */
export interface CalibrationRecord {
  readonly signature: CalibrationSignature;
  readonly createdAtMs: number;
  readonly choice: CalibrationChoice;
}

/** Stable key: the signature's fields in a fixed order. @internal */
export const signatureKey = (s: CalibrationSignature): string =>
  JSON.stringify(
    Object.keys(s)
      .sort()
      .map((k) => [k, s[k as keyof CalibrationSignature]]),
  );

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A stored value read back, or why it cannot be used. @internal */
export const parseRecord = (
  value: unknown,
  signature: CalibrationSignature,
  nowMs: number,
  ttlMs: number,
): CalibrationRecord | string => {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const r = value as Partial<CalibrationRecord>;
  const c = r.choice as Partial<CalibrationChoice> | undefined;
  if (
    !isNum(r.createdAtMs) ||
    typeof c !== 'object' ||
    c === null ||
    ![c.workers, c.prefetchFactor, c.batchSize, c.samplesPerSecond, c.p95WaitMs].every(isNum)
  )
    return 'missing or invalid fields';
  if (typeof r.signature !== 'object' || r.signature === null) return 'missing or invalid signature';
  if (signatureKey(r.signature as CalibrationSignature) !== signatureKey(signature)) return 'signature differs';
  if (nowMs - r.createdAtMs > ttlMs) return `stale (older than ${Math.round(ttlMs / 3.6e6)} h)`;
  if (r.createdAtMs > nowMs + 60_000) return 'created in the future';
  return r as CalibrationRecord;
};
