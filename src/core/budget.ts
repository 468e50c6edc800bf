/**
 * The budget rule every packet follows: in order, a record that does not fit is skipped and later, smaller ones may
 * still fit.
 */
export function walkBudget(
  ids: readonly string[],
  tokensOf: (id: string) => number,
  budget: number,
): { selected: string[]; used: number } {
  const selected: string[] = [];
  let used = 0;
  for (const id of ids) {
    const tokens = tokensOf(id);
    if (used + tokens > budget) continue;
    selected.push(id);
    used += tokens;
  }
  return { selected, used };
}
