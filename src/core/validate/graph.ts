/** Finds cycles in a dependency graph; each cycle is returned once, as a path that starts and ends at one node. */
export function findCycles(
  edges: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (node: string) => {
    state.set(node, "visiting");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      const mark = state.get(next);
      if (mark === "visiting") {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const key = [...cycle.slice(0, -1)].sort().join(" ");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (mark === undefined) {
        visit(next);
      }
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
