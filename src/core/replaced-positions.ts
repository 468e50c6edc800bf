/**
 * Where a new list of records differs from the previous one by object only (a toggle replaces a record
 * in place): the positions whose object changed, or null when the lengths differ or an id moved, in
 * which case nothing can be matched by position.
 */
export function replacedPositions(before: readonly { readonly id: string }[], after: readonly { readonly id: string }[]): number[] | null {
  if (before.length !== after.length) return null;
  const replaced: number[] = [];
  for (let position = 0; position < after.length; position += 1) {
    const a = before[position];
    const b = after[position];
    if (a === b) continue;
    if (a?.id !== b?.id) return null;
    replaced.push(position);
  }
  return replaced;
}
