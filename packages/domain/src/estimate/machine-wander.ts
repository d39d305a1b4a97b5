/**
 * How far a machine's speed over a window of T seconds strays from its speed over a whole run, measured in the runs it
 * has done and kept between runs. A look of T seconds cannot see this in its own batches: on the 2-core VM of the
 * matrix, a run's 2 s windows strayed 8 % (rms) and its 20 s windows 5 % from the run's mean, while the interval of
 * a 2 s look assumed a 3.5 % run-to-run spread (ADR 0014).
 */

/** Window lengths, seconds, at which the wander is kept. @public */
export const WANDER_WINDOWS_S: readonly number[] = [1, 2, 5, 10, 20, 60];
/** Each run the record keeps, the earlier ones count this much less: the wander of the last ~10 runs rules. */
const DECAY = 0.9;
/** Fewest windows (after decay) at a length before the record speaks for it. */
const MIN_WINDOWS = 8;
/** Fewest windows of a length a run must hold to measure it (fewer make the run's own mean too close to each). */
const MIN_WINDOWS_PER_RUN = 3;

/** Squared deviations at one window length: pooled raw, the part batch-to-batch noise explains, and how many. @public */
export interface WanderWindow {
  readonly seconds: number;
  readonly sumSquares: number;
  readonly noise: number;
  readonly count: number;
}

/** A machine's wander, pooled over its runs (newest weighted most). @public */
export interface WanderProfile {
  readonly version: 1;
  readonly runs: number;
  readonly windows: readonly WanderWindow[];
}

/** The wander a look of some length is judged by, at the longest kept window no longer than the look. @public */
export interface WanderAt {
  readonly windowS: number;
  /** root mean square of window mean ÷ run mean − 1, less what batch noise explains */
  readonly rms: number;
  readonly windows: number;
  readonly runs: number;
}

const empty = (): WanderWindow[] => WANDER_WINDOWS_S.map((seconds) => ({ seconds, sumSquares: 0, noise: 0, count: 0 }));

/**
 * One run's contribution: its steady batches cut into consecutive windows of each length; each window's mean batch time
 * against the run's mean. Windows that run fewer than 3 times in the run are left out. The K/(K − 1) factor undoes the
 * run's own mean being made of its K windows; `noise` is what independent batch times of the run's spread would give.
 * @public
 */
export const measureWander = (steadyWallMs: readonly number[]): WanderProfile => {
  const n = steadyWallMs.length;
  if (n < 2) return { version: 1, runs: 0, windows: empty() };
  const total = steadyWallMs.reduce((s, x) => s + x, 0);
  const mean = total / n;
  const variance = steadyWallMs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  const windows = WANDER_WINDOWS_S.map((seconds) => {
    const deviations: { d: number; noise: number }[] = [];
    let [ms, k] = [0, 0];
    for (const w of steadyWallMs) {
      ms += w;
      k += 1;
      if (ms >= seconds * 1000) {
        deviations.push({ d: ms / k / mean - 1, noise: variance / k / mean ** 2 });
        [ms, k] = [0, 0];
      }
    }
    const K = deviations.length;
    if (K < MIN_WINDOWS_PER_RUN) return { seconds, sumSquares: 0, noise: 0, count: 0 };
    const c = K / (K - 1);
    return {
      seconds,
      sumSquares: deviations.reduce((s, x) => s + c * x.d ** 2, 0),
      noise: deviations.reduce((s, x) => s + x.noise, 0),
      count: K,
    };
  });
  return { version: 1, runs: 1, windows };
};

/** A machine with no run measured yet. @public */
export const emptyWander = (): WanderProfile => ({ version: 1, runs: 0, windows: empty() });

/** The record after one more run: the earlier runs decay, the new one adds. @public */
export const mergeWander = (kept: WanderProfile | null, run: WanderProfile): WanderProfile => {
  const base = kept ?? emptyWander();
  return {
    version: 1,
    runs: base.runs + run.runs,
    windows: WANDER_WINDOWS_S.map((seconds, i) => {
      const a = base.windows.find((w) => w.seconds === seconds);
      const b = run.windows[i]!;
      return {
        seconds,
        sumSquares: (a?.sumSquares ?? 0) * DECAY + b.sumSquares,
        noise: (a?.noise ?? 0) * DECAY + b.noise,
        count: (a?.count ?? 0) * DECAY + b.count,
      };
    }),
  };
};

/**
 * The wander for a look of `seconds`: at the longest window with enough data no longer than the look (a longer look
 * wanders less, so this errs wide), or the shortest with enough data when the look is shorter than every such window.
 * Null while no window length has enough.
 * @public
 */
export const wanderAt = (profile: WanderProfile | null, seconds: number): WanderAt | null => {
  const known = (profile?.windows ?? []).filter((w) => w.count >= MIN_WINDOWS).sort((a, b) => a.seconds - b.seconds);
  if (!known.length) return null;
  const w = [...known].reverse().find((x) => x.seconds <= seconds) ?? known[0]!;
  return {
    windowS: w.seconds,
    rms: Math.sqrt(Math.max(0, (w.sumSquares - w.noise) / w.count)),
    windows: Math.round(w.count),
    runs: profile!.runs,
  };
};

/** A stored record, or null when `value` is not one (an older format, a hand edit): the run then assumes the spread. @public */
export const parseWanderProfile = (value: unknown): WanderProfile | null => {
  const v = value as Partial<WanderProfile> | null;
  if (!v || v.version !== 1 || typeof v.runs !== 'number' || !Array.isArray(v.windows)) return null;
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const ok = v.windows.every(
    (w: Partial<WanderWindow>) => finite(w?.seconds) && finite(w.sumSquares) && finite(w.noise) && finite(w.count),
  );
  return ok ? (v as WanderProfile) : null;
};
