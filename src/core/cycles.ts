/**
 * For each node on a cycle (a strongly connected component of two or more nodes), the number of its component,
 * walked from `starts` along `targetsOf` without recursion, so a long chain cannot overflow the stack (Tarjan).
 * Resolve finds supersession cycles with it over a record set, and the PostgreSQL load over its stored links.
 */
export function componentsOnCycles(
  starts: Iterable<string>,
  targetsOf: (id: string) => readonly string[],
): Map<string, number> {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  for (const start of starts) {
    if (order.has(start)) continue;
    const path: { id: string; targets: readonly string[]; next: number }[] = [];
    const enter = (id: string) => {
      order.set(id, counter);
      low.set(id, counter);
      counter += 1;
      stack.push(id);
      onStack.add(id);
      path.push({ id, targets: targetsOf(id), next: 0 });
    };
    enter(start);
    while (path.length > 0) {
      const frame = path[path.length - 1] as (typeof path)[number];
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next] as string;
        frame.next += 1;
        if (!order.has(target)) enter(target);
        else if (onStack.has(target))
          low.set(frame.id, Math.min(low.get(frame.id) as number, order.get(target) as number));
        continue;
      }
      path.pop();
      const parent = path[path.length - 1];
      if (parent !== undefined) low.set(parent.id, Math.min(low.get(parent.id) as number, low.get(frame.id) as number));
      if (low.get(frame.id) !== order.get(frame.id)) continue;
      const members: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        onStack.delete(member);
        members.push(member);
        if (member === frame.id) break;
      }
      if (members.length > 1) {
        for (const member of members) component.set(member, components);
        components += 1;
      }
    }
  }
  return component;
}
