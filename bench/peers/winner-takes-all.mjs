/**
 * adec's `winner_takes_all` (packages/runtime/src/decide/aggregate.ts) restated in plain
 * JavaScript for the engines that only report which rules matched: the highest tier among the
 * matched rules wins (t1 is the hard floor), ties inside it go to the most restrictive outcome,
 * and the winning rule is the first matched rule of that tier with that outcome. Nothing matched
 * → GREEN. Every peer shares this one function, so they differ only in how they evaluate
 * conditions.
 */
const RESTRICTIVENESS = { GREEN: 0, 'GREEN-SKIP': 1, YELLOW: 2, RED: 3 };
const TIER_RANK = { t1: 0, t2: 1, t3: 2 };

/** Rules in evaluation order (tier, then declaration), with the index of each id. */
export function evaluationOrder(rules) {
  const ordered = rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => TIER_RANK[a.rule.severity] - TIER_RANK[b.rule.severity] || a.index - b.index)
    .map(({ rule }) => rule);
  return { ordered, rank: new Map(ordered.map((rule, index) => [rule.id, index])) };
}

/**
 * @param {{ ordered: object[], rank: Map<string, number> }} order from evaluationOrder
 * @param {Iterable<string>} matchedIds the ids of the matched rules, in any order
 * @returns {{ status: string, winningRule: string | null }}
 */
export function winnerTakesAll(order, matchedIds) {
  let best = -1;
  for (const id of matchedIds) {
    const rank = order.rank.get(id);
    if (rank === undefined) throw new Error(`an engine reported an unknown rule "${id}"`);
    if (best === -1 || rank < best) best = rank;
  }
  if (best === -1) return { status: 'GREEN', winningRule: null };
  const tier = order.ordered[best].severity;
  let winner = order.ordered[best];
  for (const id of matchedIds) {
    const rule = order.ordered[order.rank.get(id)];
    if (rule.severity !== tier) continue;
    const stricter = RESTRICTIVENESS[rule.outcome] - RESTRICTIVENESS[winner.outcome];
    if (stricter > 0 || (stricter === 0 && order.rank.get(id) < order.rank.get(winner.id))) winner = rule;
  }
  return { status: winner.outcome, winningRule: winner.id };
}
