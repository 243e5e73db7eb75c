import { describe, expect, it } from 'vitest';
import { LANGUAGE_BENEFITS_EXAMPLE as BENEFITS } from '../language-example.js';
import { checkOk } from './helpers.js';


describe('the benefits example of LANGUAGE.md', () => {
  it('checks clean', () => {
    checkOk(BENEFITS);
  });

  it('produces the header and the action with its aggregation', () => {
    const world = checkOk(BENEFITS);
    expect(world.header).toEqual({ org: 'acme', domain: 'hr.benefits', world: 'hr.benefits', version: '1.4.0' });
    expect(world.predicateTimeoutMs).toBe(5);
    expect(world.actions.map((a) => a.name)).toEqual(['add_dependent']);
    expect(world.actions[0]!.aggregation).toEqual({ mode: 'winner_takes_all' });
  });

  it('keeps rule outcomes, severities and reads', () => {
    const rules = checkOk(BENEFITS).actions[0]!.rules;
    expect(rules.map((r) => [r.id, r.outcome, r.severity, r.reads])).toEqual([
      ['child_under_26', 'GREEN', 't2', ['over_age', 'relationship']],
      ['student_extension', 'YELLOW', 't2', ['dependent_age', 'full_time_student', 'over_age', 'relationship']],
      ['ineligible_over_age', 'RED', 't1', ['full_time_student', 'over_age', 'relationship']],
    ]);
    expect(rules.every((r) => r.suppresses.length === 0)).toBe(true);
  });

  it('lists the context with the computed attribute last and typed', () => {
    const context = checkOk(BENEFITS).actions[0]!.context;
    expect(context.map((a) => [a.name, a.source])).toEqual([
      ['relationship', 'supplied'],
      ['dependent_age', 'supplied'],
      ['full_time_student', 'supplied'],
      ['documents', 'supplied'],
      ['request_time', 'system'],
      ['over_age', 'computed'],
    ]);
    expect(context[2]!.type).toEqual({ kind: 'optional', inner: { kind: 'bool' } });
    expect(context[3]!.defaultValue).toEqual([]);
    expect(context[5]!.derivation).toMatchObject({
      kind: 'compare',
      operator: '>=',
      type: { kind: 'bool' },
      left: { kind: 'ref', root: 'context', name: 'dependent_age', type: { kind: 'int' } },
      right: { kind: 'literal', value: 26, type: { kind: 'int' } },
    });
  });

  it('types the rule expressions', () => {
    const [, studentExtension] = checkOk(BENEFITS).actions[0]!.rules;
    expect(studentExtension!.appliesWhen).toMatchObject({
      kind: 'compare',
      operator: '==',
      left: { kind: 'ref', name: 'relationship', type: { kind: 'enum', members: ['child', 'spouse', 'domestic_partner'] } },
      right: { kind: 'literal', value: 'child' },
    });
    expect(studentExtension!.when).toMatchObject({
      kind: 'logical',
      operator: 'and',
      left: { kind: 'ref', name: 'over_age' },
      right: { kind: 'coalesce', type: { kind: 'bool' }, left: { kind: 'ref', name: 'full_time_student' }, right: { kind: 'literal', value: false } },
    });
    expect(studentExtension!.reason!.parts).toMatchObject(['Dependent is ', { kind: 'ref', name: 'dependent_age' }, '; student status needs proof']);
  });

  it('keeps the work_frame templates per status', () => {
    expect(checkOk(BENEFITS).actions[0]!.workFrames).toEqual({
      YELLOW: { next_action: 'gather_evidence_and_retry', required_output: ['enrollment_verification'], next_human_owner: 'benefits-review' },
      RED: { next_human_owner: 'benefits-escalations' },
    });
  });

  it('checks the golden test', () => {
    expect(checkOk(BENEFITS).tests).toEqual([
      expect.objectContaining({
        kind: 'adjudication',
        action: 'add_dependent',
        context: { relationship: 'child', dependent_age: 27, documents: [] },
        system: {},
        expectStatus: 'RED',
        expectRule: 'ineligible_over_age',
      }),
    ]);
  });
});
