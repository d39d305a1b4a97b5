import type { ValidationIssue } from './validation-error';

/** Closed range a flag's value must fall in; `integer` also refuses fractions. @public */
export interface NumberBounds {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
}

const fmt = (v: number): string => (Math.abs(v) >= 1e6 && Number.isInteger(v) ? v.toLocaleString('en-US') : String(v));

/**
 * One rule for every numeric flag: a finite number (NaN and ±Infinity never pass), an integer when asked, within
 * `[min, max]`. Returns an issue naming `field`, or null.
 * @public
 */
export const checkBoundedNumber = (field: string, value: unknown, bounds: NumberBounds): ValidationIssue | null => {
  const kind = bounds.integer ? 'an integer' : 'a finite number';
  const range = `${kind} from ${fmt(bounds.min)} to ${fmt(bounds.max)}`;
  if (typeof value !== 'number' || !Number.isFinite(value))
    return { field, message: `must be ${range}, got ${String(value)}` };
  if (bounds.integer && !Number.isInteger(value)) return { field, message: `must be ${range}, got ${value}` };
  if (value < bounds.min || value > bounds.max) return { field, message: `must be ${range}, got ${fmt(value)}` };
  return null;
};

/** `checkBoundedNumber` over optional flags: absent values pass. @public */
export const checkBoundedNumbers = (
  checks: readonly (readonly [field: string, value: unknown, bounds: NumberBounds])[],
): ValidationIssue[] =>
  checks.flatMap(([field, value, bounds]) => {
    if (value === undefined) return [];
    const issue = checkBoundedNumber(field, value, bounds);
    return issue ? [issue] : [];
  });
