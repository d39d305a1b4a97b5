const N = 624;
const M = 397;

/**
 * CPython's `random.Random` for what maou draws from it: the MT19937 generator seeded from an integer
 * (`init_by_array` over the integer's 32-bit words), `getrandbits`, `_randbelow` and `shuffle`, giving the same
 * numbers as Python 3 for the same seed (checked against vectors Python printed, `testdata/`).
 * @public
 */
export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N;

  /** `random.Random(seed)` for an integer seed (Python seeds from its absolute value); a safe integer only. */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`PythonRandom: the seed must be a safe integer, got ${seed}`);
    let n = Math.abs(seed);
    const key: number[] = [];
    do {
      key.push(n % 2 ** 32);
      n = Math.floor(n / 2 ** 32);
    } while (n > 0);
    this.initByArray(key);
  }

  /** `getrandbits(k)` for 1 ≤ k ≤ 53: the first word fills the low 32 bits, as CPython's does. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > 53) throw new RangeError(`getrandbits: k must be 1 to 53, got ${k}`);
    if (k <= 32) return this.next() >>> (32 - k);
    const low = this.next();
    return (this.next() >>> (64 - k)) * 2 ** 32 + low;
  }

  /** `_randbelow(n)`: draws k = bit length of n bits until the draw is below n. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`randbelow: n must be a positive integer, got ${n}`);
    let bits = 1;
    while (2 ** bits <= n) bits++;
    let r = this.getrandbits(bits);
    while (r >= n) r = this.getrandbits(bits);
    return r;
  }

  /** `shuffle(x)` in place: for i from the end down to 1, swap x[i] with x[randbelow(i + 1)]. */
  shuffle<T>(x: T[]): T[] {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i]!;
      x[i] = x[j]!;
      x[j] = t;
    }
    return x;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** `genrand_uint32`: the next tempered word, regenerating the table every 624 draws. */
  private next(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let kk = 0; kk < N; kk++) {
        const y = (mt[kk]! & 0x80000000) | (mt[(kk + 1) % N]! & 0x7fffffff);
        mt[kk] = mt[(kk + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
}
