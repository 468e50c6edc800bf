/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`, ignoring case; a typo is one or two. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let before: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const replace = (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, replace);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/**
 * The names among `candidates` a mistyped `word` most likely meant: the closest, within a third of the
 * word's length (at least two edits), at most three, nearest first. Empty when nothing is that close.
 */
export function nearestNames(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const within = Math.max(2, Math.floor(word.length / 3));
  const scored: { readonly name: string; readonly distance: number }[] = [];
  for (const name of new Set(candidates)) {
    if (name === word) continue;
    const distance = editDistance(word, name);
    if (distance <= within) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const closest = scored[0]?.distance;
  return scored
    .filter((entry) => entry.distance === closest)
    .slice(0, limit)
    .map((entry) => entry.name);
}
