/** Receipt ids and fingerprints are 64 hex digits; the first 12 identify one in conversation. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

export function formatScore(score: number | null): string {
  return score === null ? '—' : score.toFixed(3);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
