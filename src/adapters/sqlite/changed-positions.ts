/**
 * Positions where two lists of the same length hold different objects: a walk over references, not over the items.
 * A record set derived by a patch holds the same record objects wherever nothing changed.
 */
export function changedPositions<T>(last: readonly T[], items: readonly T[]): number[] {
  const changed: number[] = [];
  for (let position = 0; position < items.length; position += 1)
    if (last[position] !== items[position]) changed.push(position);
  return changed;
}
