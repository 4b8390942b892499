/**
 * The order a task runner builds `goals` in: each one's dependencies first (depth first), every name once, a cycle
 * cut where it closes, and at most `limit` names, so a huge or cyclic file cannot stall the hook.
 */
export function dependencyOrder(
  goals: readonly string[],
  dependenciesOf: (name: string) => readonly string[] | undefined,
  limit: number,
): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || seen.size >= limit) return;
    seen.add(name);
    const dependencies = dependenciesOf(name);
    if (dependencies === undefined) return;
    for (const dependency of dependencies) visit(dependency);
    order.push(name);
  };
  for (const goal of goals) visit(goal);
  return order;
}
