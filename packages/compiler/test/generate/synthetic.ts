/**
 * A synthetic world of any size for cost measurements: `ruleCount` rules spread over ten
 * actions, with applies_when filters, interpolated reasons, regexes, lists and suppressions.
 */
import { BOOL, INT, STRING, TIMESTAMP, type CheckedAction, type CheckedRule, type CheckedWorld, type ContextAttribute } from '../../src/model/index.js';
import { and, cmp, coalesce, contains, enumOf, inList, list, listOf, lit, matches, not, optional, or, ref, span, template } from './fixtures.js';

const TIER = enumOf('bronze', 'silver', 'gold');

const CONTEXT: readonly ContextAttribute[] = [
  { name: 'amount', source: 'supplied', type: INT, span: span(1, 3, 'context.adec') },
  { name: 'tier', source: 'supplied', type: TIER, span: span(2, 3, 'context.adec') },
  { name: 'country', source: 'supplied', type: STRING, span: span(3, 3, 'context.adec') },
  { name: 'flags', source: 'supplied', type: listOf(STRING), defaultValue: [], span: span(4, 3, 'context.adec') },
  { name: 'verified', source: 'supplied', type: optional(BOOL), span: span(5, 3, 'context.adec') },
  { name: 'request_time', source: 'system', type: TIMESTAMP, span: span(6, 3, 'context.adec') },
  { name: 'large', source: 'computed', type: BOOL, derivation: cmp('>', ref('amount', INT), lit(10_000)), span: span(7, 3, 'context.adec') },
];

function syntheticRule(action: string, i: number): CheckedRule {
  const amount = ref('amount', INT);
  const tier = ref('tier', TIER);
  const country = ref('country', STRING);
  const flags = ref('flags', listOf(STRING));
  const verified = ref('verified', optional(BOOL));
  let when = and(cmp('>=', amount, lit((i * 37) % 50_000)), cmp('==', tier, lit(['bronze', 'silver', 'gold'][i % 3] ?? 'gold', TIER)));
  if (i % 2 === 0) when = or(when, and(contains(flags, lit(`flag_${i}`), { mode: 'element' }), not(coalesce(verified, lit(false)))));
  if (i % 5 === 0) when = and(when, inList(country, list(STRING, lit('DE'), lit('FR'), lit(`C${i % 97}`))));
  if (i % 50 === 0) when = and(when, matches(country, `^C${i % 7}[0-9]*$`, 'i', true));
  const outcomes = ['GREEN', 'YELLOW', 'RED', 'GREEN-SKIP'] as const;
  return {
    id: `${action}_rule_${i}`,
    action,
    outcome: outcomes[i % 4] ?? 'YELLOW',
    severity: i % 10 === 0 ? 't1' : i % 3 === 0 ? 't3' : 't2',
    ...(i % 3 === 1 && { appliesWhen: cmp('!=', country, lit('XX')) }),
    when,
    reason: template(`Rule ${i}: amount `, amount, ' for tier ', tier),
    suppresses: i % 10 === 1 ? [`${action}_rule_${i + 1}`] : [],
    ...(i % 100 === 7 && { timeoutMs: 20 }),
    reads: ['amount', 'country', 'flags', 'tier', 'verified'].sort(),
    span: span(10 + i * 6, 3, `${action}.adec`),
  };
}

export function syntheticWorld(ruleCount: number, actionCount = 10): CheckedWorld {
  const actions: CheckedAction[] = [];
  for (let a = 0; a < actionCount; a++) {
    const name = `action_${a}`;
    const rules: CheckedRule[] = [];
    for (let i = a; i < ruleCount; i += actionCount) rules.push(syntheticRule(name, i));
    actions.push({ name, context: CONTEXT, aggregation: { mode: 'winner_takes_all' }, rules, workFrames: { RED: { next_human_owner: 'ops' } }, span: span(1, 1, `${name}.adec`) });
  }
  return {
    header: { org: 'bench', domain: 'synthetic', world: 'synthetic', version: '1.0.0' },
    predicateTimeoutMs: 5,
    actions,
    skills: [],
    scenarios: [],
    tests: [],
  };
}

export const SYNTHETIC_SOURCES = ['context.adec', ...Array.from({ length: 10 }, (_, a) => `action_${a}.adec`)];
