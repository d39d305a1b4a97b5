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
      'must be a finite number at least 0, got Infinity',
    );
  });

  it('given a range open at an end, then the end itself fails and the message shows the interval', () => {
    const share = { min: 0, max: 1, minExclusive: true, maxExclusive: true };
    expect([0.001, 0.999].map((v) => checkBoundedNumber('--r', v, share))).toEqual([null, null]);
    expect([0, 1].map((v) => checkBoundedNumber('--r', v, share)?.message)).toEqual([
      'must be a finite number in (0, 1), got 0',
      'must be a finite number in (0, 1), got 1',
    ]);
    expect(checkBoundedNumber('--r', 0, { min: 0, max: 1, maxExclusive: true })).toBeNull();
    expect(checkBoundedNumber('--r', 1, { min: 0, max: 1, minExclusive: true })).toBeNull();
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
