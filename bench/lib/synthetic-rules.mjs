/**
 * The benchmark's decision logic as data: one deterministic list of rules that every engine
 * in the bench expresses in its own language (adec source, plain JavaScript, Cedar policies,
 * a ZEN decision table, json-rules-engine rules). Keeping the logic in one model is what makes
 * the engines comparable: they differ only in how they evaluate the same conditions.
 *
 * Each rule applies to one region and holds when all its conditions hold. Conditions mix the
 * shapes real policies use: enum equality, a numeric range, then one of list membership,
 * string contains, an optional attribute with a default, or a numeric lower bound.
 */
export const TIERS = ['bronze', 'silver', 'gold', 'platinum'];
export const REGIONS = ['us', 'eu', 'apac', 'latam'];
export const WORDS = ['urgent', 'refund', 'fraud', 'vip', 'manual', 'review', 'legal', 'bulk'];
const OUTCOMES = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'];
const SEVERITIES = ['t1', 't2', 't2', 't3'];

/**
 * @typedef {{ kind: 'equals', attribute: 'tier', value: string }
 *   | { kind: 'range', attribute: 'amount', low: number, high: number }
 *   | { kind: 'member', attribute: 'tags', value: string }
 *   | { kind: 'contains', attribute: 'note', value: string }
 *   | { kind: 'aboveOrDefault', attribute: 'score', fallback: number, bound: number }
 *   | { kind: 'atLeast', attribute: 'age', bound: number }} Condition
 * @typedef {{ id: string, outcome: string, severity: 't1' | 't2' | 't3', region: string, conditions: Condition[] }} SyntheticRule
 */

/** A small deterministic PRNG (mulberry32) so generated rules never vary between runs. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** @returns {Condition[]} */
function conditions(random) {
  const low = Math.floor(random() * 9000);
  const high = low + 100 + Math.floor(random() * 5000);
  const tier = pick(random, TIERS);
  const list = [
    { kind: 'equals', attribute: 'tier', value: tier },
    { kind: 'range', attribute: 'amount', low, high },
  ];
  const extra = Math.floor(random() * 4);
  if (extra === 0) list.push({ kind: 'member', attribute: 'tags', value: pick(random, WORDS) });
  if (extra === 1) list.push({ kind: 'contains', attribute: 'note', value: pick(random, WORDS) });
  if (extra === 2) list.push({ kind: 'aboveOrDefault', attribute: 'score', fallback: 0, bound: Math.floor(random() * 90) });
  if (extra === 3) list.push({ kind: 'atLeast', attribute: 'age', bound: 18 + Math.floor(random() * 50) });
  return list;
}

/** `count` rules; the same arguments always give the same rules. */
export function syntheticRules(count, { seed = 42 } = {}) {
  const random = prng(seed);
  /** @type {SyntheticRule[]} */
  const rules = [];
  for (let i = 0; i < count; i++) {
    const region = pick(random, REGIONS);
    rules.push({
      id: `r_${String(i).padStart(5, '0')}`,
      outcome: OUTCOMES[i % OUTCOMES.length],
      severity: SEVERITIES[(i >> 2) % SEVERITIES.length],
      region,
      conditions: conditions(random),
    });
  }
  return rules;
}

/** Deterministic, varied requests for the synthetic context (every attribute shape exercised). */
export function syntheticContexts(count) {
  return Array.from({ length: count }, (_, i) => ({
    tier: TIERS[i % 4],
    region: REGIONS[(i >> 2) % 4],
    amount: (i * 7919) % 12000,
    age: 18 + ((i * 31) % 70),
    tags: i % 3 === 0 ? [WORDS[i % 8], WORDS[(i + 3) % 8]] : [],
    note: i % 5 === 0 ? `please ${WORDS[(i + 1) % 8]} this` : '',
    ...(i % 2 === 0 && { score: (i * 13) % 100 }),
  }));
}
