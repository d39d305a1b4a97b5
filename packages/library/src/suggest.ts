/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
const distance = (a: string, b: string): number => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
};

/**
 * The known name closest to a mistyped one, or none when nothing is close: at most a third of the name's length in
 * edits (at least 1), or a known name that starts with it.
 * @public
 */
export const closestName = (typed: string, known: readonly string[]): string | undefined => {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = distance(typed, name);
    if (d <= limit && (!best || d < best.d)) best = { name, d };
  }
  return best?.name ?? (typed.length >= 3 ? known.find((n) => n.startsWith(typed)) : undefined);
};
