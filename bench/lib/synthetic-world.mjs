/**
 * Generates a synthetic but realistic world of N rules for benchmarks: rules mix the
 * predicate shapes real policies use (enum equality, numeric ranges, list membership,
 * string contains, an optional attribute with a default), spread over actions of
 * `rulesPerAction` rules, every outcome and tier represented. Deterministic: the same N
 * always gives the same text, so runs are comparable.
 */
const TIERS = ['bronze', 'silver', 'gold', 'platinum'];
const REGIONS = ['us', 'eu', 'apac', 'latam'];
const OUTCOMES = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'];
const SEVERITIES = ['t1', 't2', 't2', 't3'];
const WORDS = ['urgent', 'refund', 'fraud', 'vip', 'manual', 'review', 'legal', 'bulk'];

/** A small deterministic PRNG (mulberry32) so generated worlds never vary between runs. */
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

function condition(random) {
  const low = Math.floor(random() * 9000);
  const high = low + 100 + Math.floor(random() * 5000);
  const parts = [
    `tier == "${pick(random, TIERS)}"`,
    `amount >= ${low} and amount < ${high}`,
  ];
  const extra = Math.floor(random() * 4);
  if (extra === 0) parts.push(`"${pick(random, WORDS)}" in tags`);
  if (extra === 1) parts.push(`note CONTAINS "${pick(random, WORDS)}"`);
  if (extra === 2) parts.push(`(score ?? 0) > ${Math.floor(random() * 90)}`);
  if (extra === 3) parts.push(`age >= ${18 + Math.floor(random() * 50)}`);
  return parts.join(' and ');
}

/** @returns {{ files: Record<string, string>, rules: number, actions: number }} */
export function syntheticWorld(ruleCount, { rulesPerAction = 50, seed = 42 } = {}) {
  const random = prng(seed);
  const header = `world {
  org     "bench"
  domain  "synthetic"
  version "1.0.0"
}

context {
  supplied tier:   "bronze" | "silver" | "gold" | "platinum"
  supplied region: "us" | "eu" | "apac" | "latam"
  supplied amount: float(0..1000000)
  supplied age:    int(0..130)
  supplied tags:   list<string> = []
  supplied note:   string = ""
  supplied score:  int?
}
`;
  const files = { 'world.adec': header };
  const actions = Math.ceil(ruleCount / rulesPerAction);
  for (let a = 0; a < actions; a++) {
    const name = `action_${String(a).padStart(4, '0')}`;
    const rules = [];
    const count = Math.min(rulesPerAction, ruleCount - a * rulesPerAction);
    for (let r = 0; r < count; r++) {
      const i = a * rulesPerAction + r;
      rules.push(`  rule r_${String(i).padStart(5, '0')} {
    outcome      ${OUTCOMES[i % OUTCOMES.length]}
    severity     ${SEVERITIES[(i >> 2) % SEVERITIES.length]}
    applies_when region == "${pick(random, REGIONS)}"
    when         ${condition(random)}
    reason       "amount {amount} for a {tier} customer"
  }`);
    }
    files[`${name}.adec`] = `action ${name} {
  aggregate winner_takes_all

${rules.join('\n\n')}

  on RED { next_human_owner "risk-escalations" }
}
`;
  }
  return { files, rules: ruleCount, actions };
}
