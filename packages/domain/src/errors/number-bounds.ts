import type { ValidationIssue } from './validation-error';

/** Range a flag's value must fall in (closed unless an end says otherwise); `integer` also refuses fractions. @public */
export interface NumberBounds {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
  /** the range is open at `min` (a ratio that must be positive) */
  readonly minExclusive?: boolean;
  /** the range is open at `max` (a share that must stay below 1) */
  readonly maxExclusive?: boolean;
}

/**
 * 65,536 rather than 65536; fractions as JavaScript prints them. Grouped by hand: `toLocaleString` loads ICU's locale
 * data on its first call (about 35 ms), which every `maou` start paid for its help and range checks.
 * @public
 */
export const formatBound = (v: number): string => {
  if (Math.abs(v) < 10_000 || !Number.isInteger(v)) return String(v);
  // below 1e21 JavaScript prints every digit; above, in exponent form, which only the locale formatter groups
  return Math.abs(v) < 1e21 ? String(v).replace(/\B(?=(\d{3})+$)/g, ',') : v.toLocaleString('en-US');
};
const fmt = formatBound;

/** "1 to 65,536" for a closed range, interval notation ("(0, 1)") for one with an open end. @public */
export const describeRange = (b: NumberBounds): string =>
  b.minExclusive || b.maxExclusive
    ? `${b.minExclusive ? '(' : '['}${fmt(b.min)}, ${fmt(b.max)}${b.maxExclusive ? ')' : ']'}`
    : b.max === Infinity
      ? `at least ${fmt(b.min)}`
      : `${fmt(b.min)} to ${fmt(b.max)}`;

const inRange = (v: number, b: NumberBounds): boolean =>
  (b.minExclusive ? v > b.min : v >= b.min) && (b.maxExclusive ? v < b.max : v <= b.max);

/**
 * One rule for every numeric flag: a finite number (NaN and ±Infinity never pass), an integer when asked, within
 * `[min, max]`. Returns an issue naming `field`, or null.
 * @public
 */
export const checkBoundedNumber = (field: string, value: unknown, bounds: NumberBounds): ValidationIssue | null => {
  const kind = bounds.integer ? 'an integer' : 'a finite number';
  const lead = bounds.minExclusive || bounds.maxExclusive ? 'in ' : bounds.max === Infinity ? '' : 'from ';
  const range = `${kind} ${lead}${describeRange(bounds)}`;
  if (typeof value !== 'number' || !Number.isFinite(value))
    return { field, message: `must be ${range}, got ${String(value)}` };
  if (bounds.integer && !Number.isInteger(value)) return { field, message: `must be ${range}, got ${value}` };
  if (!inRange(value, bounds)) return { field, message: `must be ${range}, got ${fmt(value)}` };
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
