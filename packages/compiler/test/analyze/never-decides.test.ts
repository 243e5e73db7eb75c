import { describe, expect, it } from 'vitest';
import { checkNeverDecides } from '../../src/analyze/never-decides.js';
import { definitionKey } from '../../src/analyze/finite-model.js';
import { BOOL, INT, STRING, type CheckedAction } from '../../src/model/index.js';
import { action, and, attribute, cmp, coalesce, contains, enumType, lit, not, optional, or, ref, rule } from './builders.js';

const RELATIONSHIP = enumType('child', 'spouse', 'domestic_partner');
const relationship = () => ref('relationship', RELATIONSHIP);
const age = () => ref('dependent_age', INT);
const overAge = () => ref('over_age', BOOL);
const student = () => coalesce(ref('full_time_student', optional(BOOL)), lit(false));

function definitionsOf(act: CheckedAction) {
  return new Map(act.context.flatMap((a) => (a.derivation ? [[definitionKey('context', a.name), a.derivation] as const] : [])));
}

function warnings(act: CheckedAction) {
  return checkNeverDecides(act, definitionsOf(act)).map((d) => ({ rule: d.message.match(/`([^`]+)`/)?.[1], message: d.message, notes: d.notes }));
}

/** The add_dependent action of LANGUAGE.md. */
function addDependent(): CheckedAction {
  return action(
    [
      rule('child_under_26', 'GREEN', 't2', not(overAge()), { appliesWhen: cmp('==', relationship(), lit('child')) }),
      rule('student_extension', 'YELLOW', 't2', and(overAge(), student()), { appliesWhen: cmp('==', relationship(), lit('child')) }),
      rule('ineligible_over_age', 'RED', 't1', and(and(cmp('==', relationship(), lit('child')), overAge()), not(student()))),
    ],
    {
      context: [
        attribute('relationship', RELATIONSHIP),
        attribute('dependent_age', INT),
        attribute('full_time_student', optional(BOOL)),
        attribute('over_age', BOOL, cmp('>=', age(), lit(26))),
      ],
    },
  );
}

describe('rules that can never decide the outcome', () => {
  it('reports nothing for the add_dependent rules of LANGUAGE.md', () => {
    expect(warnings(addDependent())).toEqual([]);
  });

  it('reports a rule shadowed by a T1 rule with a weaker condition', () => {
    const act = action([
      rule('block_minors', 'RED', 't1', cmp('<', age(), lit(18))),
      rule('young_children_review', 'YELLOW', 't2', cmp('<', age(), lit(5))),
    ]);
    const [warning, ...rest] = checkNeverDecides(act);
    expect(rest).toEqual([]);
    expect(warning?.code).toBe('ADEC5003');
    expect(warning?.message).toBe(
      'rule `young_children_review` can never decide the outcome: whenever it matches, T1 rule `block_minors` also matches and wins',
    );
    expect(warning?.span).toBe(act.rules[1]!.span);
    expect(warning?.notes?.[0]).toMatch(/^rule `block_minors` is declared at world\/rules\.adec:\d+:3$/);
  });

  it('reports a same-tier rule whenever a more restrictive one matches too', () => {
    const act = action([
      rule('spouse_ok', 'GREEN', 't2', and(cmp('==', relationship(), lit('spouse')), cmp('>=', age(), lit(18)))),
      rule('spouse_review', 'RED', 't2', cmp('==', relationship(), lit('spouse'))),
    ]);
    expect(warnings(act).map((w) => w.message)).toEqual([
      'rule `spouse_ok` can never decide the outcome: whenever it matches, rule `spouse_review` of the same tier with the more restrictive outcome RED also matches',
    ]);
  });

  it('reports a lower tier shadowed by a higher one in winner_takes_all only', () => {
    const rules = [rule('t2_rule', 'GREEN', 't2', ref('flag', BOOL)), rule('t3_rule', 'RED', 't3', and(ref('flag', BOOL), ref('other', BOOL)))];
    expect(warnings(action(rules)).map((w) => w.message)).toEqual([
      'rule `t3_rule` can never decide the outcome: whenever it matches, rule `t2_rule` of the higher severity t2 also matches and wins',
    ]);
    expect(warnings(action(rules, { aggregation: { mode: 'vote_of_n', n: 2 } }))).toEqual([]);
  });

  it('applies the T1 hard floor in every aggregation mode', () => {
    const act = action(
      [rule('floor', 'RED', 't1', ref('flag', BOOL)), rule('vote', 'GREEN', 't2', and(ref('flag', BOOL), ref('other', BOOL)))],
      { aggregation: { mode: 'weighted_sum_threshold', threshold: 0.5 } },
    );
    expect(warnings(act).map((w) => w.rule)).toEqual(['vote']);
  });

  it('exempts rules whose shadow can be suppressed, and rules that suppress it', () => {
    const shadowed = () => rule('narrow', 'GREEN', 't2', and(ref('a', BOOL), ref('b', BOOL)));
    const wide = () => rule('wide', 'RED', 't2', ref('a', BOOL));
    expect(warnings(action([shadowed(), wide()])).map((w) => w.rule)).toEqual(['narrow']);
    // someone suppresses `wide`: it may be gone from the matched set
    const suppressor = rule('override', 'YELLOW', 't3', ref('c', BOOL), { suppresses: ['wide'] });
    expect(warnings(action([shadowed(), wide(), suppressor]))).toEqual([]);
    // the narrow rule itself suppresses `wide`
    const narrowSuppressing = rule('narrow', 'GREEN', 't2', and(ref('a', BOOL), ref('b', BOOL)), { suppresses: ['wide'] });
    expect(warnings(action([narrowSuppressing, wide()]))).toEqual([]);
  });

  it('does not report a rule that outranks or ties its shadow', () => {
    const act = action([
      rule('same_outcome', 'RED', 't2', and(ref('a', BOOL), ref('b', BOOL))),
      rule('wide', 'RED', 't2', ref('a', BOOL)),
      rule('more_severe', 'RED', 't1', and(ref('a', BOOL), ref('c', BOOL))),
    ]);
    expect(warnings(act)).toEqual([]);
  });

  it('does not claim implication through opaque conditions it cannot relate', () => {
    const text = () => ref('note', STRING);
    const act = action([
      rule('wide', 'RED', 't1', contains(text(), lit('urgent'))),
      rule('narrow', 'GREEN', 't2', contains(text(), lit('urgent!'))),
      rule('same', 'YELLOW', 't2', and(contains(text(), lit('urgent')), ref('b', BOOL))),
    ]);
    // `urgent!` implies `urgent` in truth, but the analysis cannot see it: no warning.
    // The structurally equal opaque condition is shared, so `same` is reported.
    expect(warnings(act).map((w) => w.rule)).toEqual(['same']);
  });

  it('reports a rule whose combined applies_when and when are never true', () => {
    const act = action([rule('contradiction', 'RED', 't2', cmp('<', age(), lit(3)), { appliesWhen: cmp('>', age(), lit(5)) })]);
    expect(warnings(act).map((w) => w.message)).toEqual(['rule `contradiction` can never decide the outcome: its condition is never true']);
  });

  it('leaves a `when` that is always false on its own to ADEC5002', () => {
    const act = action([rule('dead', 'RED', 't2', and(cmp('>', age(), lit(5)), cmp('<', age(), lit(3))))]);
    expect(warnings(act)).toEqual([]);
  });

  it('lets an always-true T1 rule shadow every lower rule, related or not', () => {
    const act = action([
      rule('catch_all', 'RED', 't1', or(ref('a', BOOL), not(ref('a', BOOL)))),
      rule('unrelated', 'GREEN', 't2', ref('z', BOOL)),
    ]);
    expect(warnings(act).map((w) => w.rule)).toEqual(['unrelated']);
  });

  it('inlines computed attributes when relating rules', () => {
    const act = action(
      [rule('adult', 'RED', 't1', overAge()), rule('thirty', 'GREEN', 't2', cmp('>', age(), lit(30)))],
      { context: [attribute('dependent_age', INT), attribute('over_age', BOOL, cmp('>=', age(), lit(26)))] },
    );
    expect(warnings(act).map((w) => w.rule)).toEqual(['thirty']);
  });

  it('stays bounded on an action with 1,000 rules', () => {
    const rules = Array.from({ length: 1000 }, (_, i) =>
      rule(`r${i}`, i % 2 === 0 ? 'RED' : 'GREEN', i % 3 === 0 ? 't1' : 't2', and(cmp('>', age(), lit(i)), cmp('==', relationship(), lit('child')))),
    );
    // Bounded by the assignment budget, not by a clock: it ends and still finds what it can.
    const result = checkNeverDecides(action(rules), new Map(), { maxAssignmentsPerAction: 200_000 });
    expect(result.length).toBeGreaterThan(0);
  });
});
