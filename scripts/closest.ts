/**
 * The strings nearest to a mistyped one, by edit distance (Levenshtein), to name in an
 * error: "did you mean …". It runs over every UMID of a registry (100,000 and more) on an
 * error path, so each distance is bounded by the worst of the best found so far: a
 * candidate whose length alone puts it further away is skipped, and a row whose every cell
 * is past the bound ends the comparison.
 */

/** Up to `count` of `candidates` nearest to `target`, nearest first (ties in candidate order). */
export function closest(
  target: string,
  candidates: Iterable<string>,
  count = 3,
  maxDistance = Math.max(3, Math.floor(target.length / 2)),
): string[] {
  const best: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const bound = best.length < count ? maxDistance : best[best.length - 1]!.distance - 1;
    const distance = boundedDistance(target, candidate, bound);
    if (distance === undefined) continue;
    const at = best.findIndex((b) => b.distance > distance);
    best.splice(at === -1 ? best.length : at, 0, { candidate, distance });
    if (best.length > count) best.pop();
  }
  return best.map((b) => b.candidate);
}

/** The edit distance of `a` and `b` if it is at most `bound`; undefined otherwise. */
function boundedDistance(a: string, b: string, bound: number): number | undefined {
  if (bound < 0 || Math.abs(a.length - b.length) > bound) return undefined;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cell = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(cell);
      if (cell < rowMin) rowMin = cell;
    }
    if (rowMin > bound) return undefined;
    previous = row;
  }
  const distance = previous[b.length]!;
  return distance <= bound ? distance : undefined;
}
