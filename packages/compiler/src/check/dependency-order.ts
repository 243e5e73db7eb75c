/**
 * Orders derivations (computed attributes, scenario state) so each comes after what it
 * reads, and finds the cycles that make an order impossible.
 */
export interface DependencyNode {
  readonly name: string;
  /** Names of other nodes this one reads; names that are not nodes are ignored. */
  readonly dependsOn: ReadonlySet<string>;
}

export interface DependencyOrder {
  /** Every node name, dependencies first; ties keep declaration order. */
  readonly order: readonly string[];
  /** Each cycle once, as the path that closes it: `[a, b, a]`. */
  readonly cycles: readonly (readonly string[])[];
}

export function dependencyOrder(nodes: readonly DependencyNode[]): DependencyOrder {
  const byName = new Map(nodes.map((n) => [n.name, n] as const));
  const order: string[] = [];
  const cycles: string[][] = [];
  const reportedCycleMembers = new Set<string>();
  const done = new Set<string>();
  const onPath: string[] = [];

  const visit = (name: string): void => {
    if (done.has(name)) return;
    const cycleStart = onPath.indexOf(name);
    if (cycleStart >= 0) {
      const cycle = [...onPath.slice(cycleStart), name];
      // A cycle is reported once, from the first of its members met in declaration order.
      if (!cycle.some((member) => reportedCycleMembers.has(member))) {
        cycle.forEach((member) => reportedCycleMembers.add(member));
        cycles.push(cycle);
      }
      return;
    }
    onPath.push(name);
    for (const dependency of byName.get(name)?.dependsOn ?? []) {
      if (byName.has(dependency)) visit(dependency);
    }
    onPath.pop();
    done.add(name);
    order.push(name);
  };

  for (const node of nodes) visit(node.name);
  return { order, cycles };
}

/** `a → b → a`, as ADEC4014 prints a cycle. */
export function formatCycle(cycle: readonly string[]): string {
  return cycle.join(' → ');
}
