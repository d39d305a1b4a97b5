import { checkBoundedNumber, checkBoundedNumbers } from './number-bounds';

describe('checkBoundedNumber', () => {
  const bounds = { min: 1, max: 1024, integer: true };

  it('given an integer in range, then no issue', () => {
    expect([checkBoundedNumber('--n', 1, bounds), checkBoundedNumber('--n', 1024, bounds)]).toEqual([null, null]);
  });

  it.each([Infinity, -Infinity, Number.NaN, 2.5, 0, 1e12, '3'])(
    'given %p, then the issue names the flag and the range',
    (v) => {
      expect(checkBoundedNumber('--n', v, bounds)).toEqual({
        field: '--n',
        message: expect.stringMatching(/^must be an integer from 1 to 1024, got /),
      });
    },
  );

  it('given a fractional range, then fractions pass and infinities do not', () => {
    expect(checkBoundedNumber('--r', 0.5, { min: 0, max: 1 })).toBeNull();
    expect(checkBoundedNumber('--r', Infinity, { min: 0, max: Infinity })?.message).toBe(
      'must be a finite number from 0 to Infinity, got Infinity',
    );
  });

  it('skips absent optional values and keeps every issue', () => {
    expect(
      checkBoundedNumbers([
        ['--a', undefined, bounds],
        ['--b', 0, bounds],
        ['--c', 2e9, bounds],
      ]).map((i) => i.field),
    ).toEqual(['--b', '--c']);
  });
});
