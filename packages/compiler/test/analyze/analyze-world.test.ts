import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeWorld } from '../../src/analyze/index.js';
import { checkSources } from '../../src/check-sources.js';
import { BOOL, INT, STRING, type CheckedScenario, type CheckedSkill } from '../../src/model/index.js';
import { action, and, attribute, cmp, enumType, intRange, lit, matches, not, or, ref, rule, span, world } from './builders.js';

const ANALYSIS_CODES = new Set(['ADEC5001', 'ADEC5002', 'ADEC5003', 'ADEC5004']);

function skill(parts: Partial<CheckedSkill>): CheckedSkill {
  return {
    id: 'rationale',
    version: '1.0.0',
    type: 'llm',
    timeoutMs: 300,
    hardLimitMs: 500,
    actionMetadata: [],
    userState: [],
    output: [{ name: 'rationale', type: STRING }],
    invariants: [],
    prohibitions: [],
    templates: [],
    span: span('world/skill.adec'),
    ...parts,
  };
}

describe('analyzeWorld', () => {
  it('reports a computed attribute of the shared context once, not once per action', () => {
    const derivation = or(ref('flag', BOOL), not(ref('flag', BOOL)));
    const context = [attribute('flag', BOOL), attribute('always', BOOL, derivation)];
    const diagnostics = analyzeWorld(
      world({
        actions: [
          action([rule('a', 'GREEN', 't2', ref('always', BOOL))], { context, name: 'first' }),
          action([rule('b', 'GREEN', 't2', ref('always', BOOL))], { context, name: 'second' }),
        ],
      }),
    );
    const alwaysTrue = diagnostics.filter((d) => d.code === 'ADEC5001');
    expect(alwaysTrue.map((d) => d.span)).toContainEqual(derivation.span);
    expect(alwaysTrue.filter((d) => d.span === derivation.span)).toHaveLength(1);
  });

  it('checks rule conditions, applies_when included, and relates rules', () => {
    const AGE = intRange(0, 150);
    const age = () => ref('age', AGE);
    const impossible = and(cmp('>', age(), lit(200)), lit(true));
    const diagnostics = analyzeWorld(
      world({
        actions: [
          action(
            [
              rule('blocked', 'RED', 't1', cmp('<', age(), lit(18))),
              rule('never', 'GREEN', 't2', cmp('<', age(), lit(10)), { appliesWhen: impossible }),
              rule('kid', 'GREEN', 't2', cmp('<', age(), lit(10)), { appliesWhen: cmp('>', age(), lit(3)) }),
              rule('contradiction', 'GREEN', 't2', cmp('<', age(), lit(10)), { appliesWhen: cmp('>', age(), lit(30)) }),
            ],
            { context: [attribute('age', AGE)] },
          ),
        ],
      }),
    );
    // `never`: its applies_when is reported (ADEC5002), not the rule a second time
    expect(diagnostics.map((d) => [d.code, d.span])).toEqual([
      ['ADEC5002', impossible.span],
      ['ADEC5003', expect.anything()],
      ['ADEC5003', expect.anything()],
    ]);
    expect(diagnostics.slice(1).map((d) => d.message)).toEqual([
      'rule `kid` can never decide the outcome: whenever it matches, T1 rule `blocked` also matches and wins',
      'rule `contradiction` can never decide the outcome: its condition is never true',
    ]);
  });

  it('flags risky patterns in MATCHES and prohibitions at their spans', () => {
    const rationale = ref('rationale', STRING, 'payload');
    const risky = matches(rationale, '(\\w+\\s?)*$', '', true);
    const safe = matches(rationale, '\\d+(\\.\\d+)?\\s*(fatigue|tired)', '', true);
    const prohibitionSpan = span('world/skill.adec');
    const diagnostics = analyzeWorld(
      world({
        skills: [
          skill({
            invariants: [
              { id: 'FIT-002', description: 'no numbers', check: risky, source: '…', span: span('world/skill.adec') },
              { id: 'FIT-003', description: 'no fatigue', check: safe, source: '…', span: span('world/skill.adec') },
            ],
            prohibitions: [
              { id: 'P-1', pattern: '(?i)(injury|pain|hurt|damage)', source: '(injury|pain|hurt|damage)', flags: 'i', reason: 'r', span: span('world/skill.adec') },
              { id: 'P-2', pattern: '(?i)(a|A)+', source: '(a|A)+', flags: 'i', reason: 'r', span: prohibitionSpan },
            ],
          }),
        ],
      }),
    );
    expect(diagnostics.map((d) => [d.code, d.span])).toEqual([
      ['ADEC5004', risky.span],
      ['ADEC5004', prohibitionSpan],
    ]);
    expect(diagnostics[1]!.message).toContain('overlapping alternatives: `(a|A)+`');
  });

  it('checks guardrails and derived state of scenarios', () => {
    const streak = () => ref('streak', INT, 'signal');
    const intensity = () => ref('intensity', enumType('low', 'high'), 'action');
    const blockPredicate = and(cmp('==', intensity(), lit('high')), cmp('==', intensity(), lit('low')));
    const scenario: CheckedScenario = {
      id: 'daily',
      version: '1.0.0',
      signals: [{ name: 'streak', type: INT }],
      state: [{ name: 'tired', type: BOOL, derivation: cmp('>=', streak(), lit(2)) }],
      actionTypes: [],
      guardrails: [
        { id: 'GR-1', description: 'cap', when: ref('tired', BOOL, 'state'), effect: { kind: 'block', predicate: blockPredicate } },
        { id: 'GR-2', description: 'never', when: and(ref('tired', BOOL, 'state'), cmp('<', streak(), lit(1))), effect: { kind: 'force', actionType: 'rest' } },
      ],
      objectives: [],
      tieBreaks: [],
      defaultMode: 'skill_enhanced',
      span: span('world/scenario.adec'),
    };
    const diagnostics = analyzeWorld(world({ scenarios: [scenario] }));
    expect(diagnostics.map((d) => [d.code, d.span])).toEqual([
      ['ADEC5002', blockPredicate.span],
      ['ADEC5002', scenario.guardrails[1]!.when.span],
    ]);
  });
});

describe('analyzeWorld on source text', () => {
  const analysisWarnings = (files: { path: string; text: string }[]) =>
    checkSources({ root: 'w', files })
      .diagnostics.filter((d) => ANALYSIS_CODES.has(d.code))
      .map((d) => `${d.span.file}:${d.span.line}:${d.span.column} ${d.code} ${d.message}${d.notes ? ` (${d.notes.join('; ')})` : ''}`);

  it('reports shadowed rules, constant conditions and risky patterns', () => {
    const text = `world { org "acme" domain "t" version "1.0.0" }
context {
  supplied age: int(0..120)
  supplied relationship: "child" | "spouse"
  supplied note: string
}
action review {
  aggregate winner_takes_all
  rule minors { outcome RED severity t1 when age < 18 reason "minor" }
  rule toddlers { outcome YELLOW severity t2 when age < 3 reason "toddler" }
  rule impossible { outcome GREEN severity t2 when age > 50 and age < 40 reason "never" }
  rule known { outcome GREEN severity t3 when relationship == "child" or relationship == "spouse" reason "always" }
  rule risky { outcome YELLOW severity t2 when note MATCHES "(a+)+b" reason "slow" }
}
`;
    expect(analysisWarnings([{ path: 'w/review.adec', text }])).toEqual([
      'w/review.adec:10:3 ADEC5003 rule `toddlers` can never decide the outcome: whenever it matches, T1 rule `minors` also matches and wins (rule `minors` is declared at w/review.adec:9:3)',
      'w/review.adec:11:52 ADEC5002 this condition is always false',
      'w/review.adec:12:47 ADEC5001 this condition is always true',
      'w/review.adec:13:48 ADEC5004 regular expression is prone to catastrophic backtracking: nested quantifier: `(a+)+` repeats a group that itself repeats (`a+`), so the same text can be split between iterations in exponentially many ways',
    ]);
  });

  it.each(['benefits', 'fitness'])('finds nothing to warn about in examples/%s', (name) => {
    const root = fileURLToPath(new URL(`../../../../examples/${name}`, import.meta.url));
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(`${dir}/${f}`).isDirectory() ? walk(`${dir}/${f}`) : [`${dir}/${f}`]));
    const files = walk(root)
      .filter((f) => f.endsWith('.adec'))
      .sort()
      .map((f) => ({ path: f.slice(root.length - name.length), text: readFileSync(f, 'utf8') }));
    expect(files.length).toBeGreaterThan(0);
    expect(analysisWarnings(files)).toEqual([]);
  });
});
