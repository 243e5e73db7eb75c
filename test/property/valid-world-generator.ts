/**
 * A generator of valid adjudication worlds: well-typed conditions over every operator family
 * (comparisons, enums, `in`, the SEC string operators, regexes, `??` and null guards,
 * timestamp and duration arithmetic, built-ins, `if`), rules with every outcome and tier,
 * `applies_when`, interpolated reasons and suppression of non-T1 rules. Each world must check
 * without error and build: this is the property test of code generation.
 */
import fc from 'fast-check';

export const VALID_CONTEXT = `context {
  supplied amount: float(0..100000)
  supplied age:    int(0..130)
  supplied tier:   "bronze" | "silver" | "gold"
  supplied note:   string
  supplied tags:   list<string> = []
  supplied vip:    bool
  supplied score:  int?
  supplied since:  timestamp
  system   request_time: timestamp
  computed adult:  bool = age >= 18
}
`;

const int = fc.integer({ min: 0, max: 130 });
const word = fc.constantFrom('vip', 'refund', 'urgent', 'x', 'Pain');
const comparison = fc.constantFrom('==', '!=', '<', '<=', '>', '>=');

const atom: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(comparison, int).map(([op, n]) => `age ${op} ${n}`),
  fc.tuple(comparison, fc.integer({ min: 0, max: 100000 })).map(([op, n]) => `amount ${op} ${n}.5`),
  fc.constantFrom('bronze', 'silver', 'gold').map((t) => `tier == "${t}"`),
  fc.constant('tier in ["bronze", "gold"]'),
  word.map((w) => `note CONTAINS "${w}"`),
  word.map((w) => `note NOT CONTAINS "${w}"`),
  fc.constant('note CONTAINS_ANY ["vip", "urgent"]'),
  fc.constant('note NOT CONTAINS_ANY ["refund"]'),
  fc.constant('note MATCHES "(?i)^pain"'),
  fc.constant('note NOT MATCHES "\\d+%"'),
  word.map((w) => `tags CONTAINS "${w}"`),
  word.map((w) => `"${w}" in tags`),
  fc.constant('tags CONTAINS_ANY ["vip", "x"]'),
  fc.constantFrom('vip', 'adult', 'not vip'),
  int.map((n) => `(score ?? 0) > ${n}`),
  fc.constant('score IS NULL'),
  int.map((n) => `score IS NOT NULL and score > ${n}`),
  int.map((n) => `note LENGTH < ${n}`),
  fc.constantFrom('30d', '18h', '500ms').map((d) => `request_time - since <= ${d}`),
  fc.constant('clamp(amount / 1000, 0, 1) > 0.5'),
  fc.constant('len(tags) >= 2'),
  fc.constant('lower(note) == "vip"'),
  fc.constant('if vip then age > 10 else amount < 5'),
);

const condition: fc.Arbitrary<string> = fc.letrec<{ c: string }>((tie) => ({
  c: fc.oneof(
    { depthSize: 'small' },
    atom,
    fc.tuple(tie('c'), fc.constantFrom('and', 'or'), tie('c')).map(([l, op, r]) => `(${l}) ${op} (${r})`),
    tie('c').map((c) => `not (${c})`),
  ),
})).c;

interface RuleSpec {
  readonly outcome: string;
  readonly severity: string;
  readonly appliesWhen: string | undefined;
  readonly when: string;
  readonly reason: string | undefined;
  readonly suppress: number | undefined;
}

const rule: fc.Arbitrary<RuleSpec> = fc.record({
  outcome: fc.constantFrom('GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'),
  severity: fc.constantFrom('t1', 't2', 't3'),
  appliesWhen: fc.option(condition, { nil: undefined }),
  when: condition,
  reason: fc.option(fc.constantFrom('Amount {amount} at tier {tier}', 'Aged {age}', 'Fixed text', 'Score {score ?? 0}'), { nil: undefined }),
  suppress: fc.option(fc.nat(), { nil: undefined }),
});

function renderRule(spec: RuleSpec, index: number, all: readonly RuleSpec[]): string {
  // Suppress a later rule of the action (so suppressions never form a cycle), never a T1 one.
  const targets = all.map((r, i) => ({ r, i })).filter(({ r, i }) => i > index && r.severity !== 't1');
  const target = spec.suppress === undefined || targets.length === 0 ? undefined : targets[spec.suppress % targets.length];
  return [
    `  rule r${index} {`,
    `    outcome  ${spec.outcome}`,
    `    severity ${spec.severity}`,
    ...(spec.appliesWhen === undefined ? [] : [`    applies_when ${spec.appliesWhen}`]),
    `    when     ${spec.when}`,
    ...(spec.reason === undefined ? [] : [`    reason   "${spec.reason}"`]),
    ...(target === undefined ? [] : [`    suppresses r${target.i}`]),
    '  }',
  ].join('\n');
}

/** A valid one-action world as source text, with its rule count. */
export function validWorld(): fc.Arbitrary<string> {
  return fc.array(rule, { minLength: 1, maxLength: 8 }).map(
    (rules) => `world { org "acme" domain "property" version "1.0.0" }
${VALID_CONTEXT}
action decide {
  aggregate winner_takes_all
${rules.map((r, i, all) => renderRule(r, i, all)).join('\n')}
}
`,
  );
}

/** A context of the shape predicates see at run time: defaults applied, timestamps in ms. */
export function runtimeContext(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    amount: fc.double({ min: 0, max: 100000, noNaN: true }),
    age: fc.integer({ min: 0, max: 130 }),
    tier: fc.constantFrom('bronze', 'silver', 'gold'),
    note: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('vip', 'Pain is fine', '50% refund')),
    tags: fc.array(fc.constantFrom('vip', 'refund', 'x'), { maxLength: 3 }),
    vip: fc.boolean(),
    score: fc.option(fc.integer({ min: 0, max: 130 }), { nil: null }),
    since: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
    request_time: fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }),
  }).map((ctx) => ({ ...ctx, adult: ctx.age >= 18 }));
}
