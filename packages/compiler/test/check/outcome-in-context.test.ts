/**
 * A test expecting RED or GREEN-SKIP whose given values make every rule of that outcome false
 * never passes, and is refused at check (ADEC4026 at the status) with a note per rule. Generated
 * over one and two rules of the outcome, with conditions on a given int and on an enum the test
 * gives or leaves to its default, in `when` or `applies_when`; decided against an oracle that
 * tries every value the test leaves open.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

interface Condition {
  readonly text: string;
  readonly holds: (amount: number, plan: string) => boolean;
}

const AMOUNT_CONDITIONS: readonly Condition[] = [
  { text: 'amount > 500', holds: (a) => a > 500 },
  { text: 'amount <= 100', holds: (a) => a <= 100 },
  { text: 'amount == 300', holds: (a) => a === 300 },
  { text: 'amount >= 200 and amount < 400', holds: (a) => a >= 200 && a < 400 },
];
const PLAN_CONDITIONS: readonly (Condition | undefined)[] = [
  undefined,
  { text: 'plan == "basic"', holds: (_a, p) => p === 'basic' },
  { text: 'plan != "basic"', holds: (_a, p) => p !== 'basic' },
];
const PLANS = ['basic', 'premium'];
const AMOUNTS = [50, 300, 900];

interface RuleShape {
  readonly amount: Condition;
  readonly plan?: Condition;
  /** The plan condition as `applies_when` rather than a conjunct of `when`. */
  readonly planApplies: boolean;
}

function ruleText(id: string, outcome: string, shape: RuleShape): string {
  const when = shape.plan === undefined || shape.planApplies ? shape.amount.text : `${shape.plan.text} and (${shape.amount.text})`;
  const applies = shape.plan !== undefined && shape.planApplies ? `    applies_when ${shape.plan.text}\n` : '';
  return `  rule ${id} {\n    outcome ${outcome}\n    severity t2\n${applies}    when ${when}\n    reason "${id}"\n  }\n`;
}

function world(outcome: string, shapes: readonly RuleShape[], amount: number, plan: string | undefined): string {
  const rules = shapes.map((shape, i) => ruleText(`r${i}`, outcome, shape)).join('');
  const context = plan === undefined ? `amount: ${amount}` : `amount: ${amount}, plan: "${plan}"`;
  return `${HEADER}context {\n  supplied amount: int(0..1000)\n  supplied plan: "basic" | "premium" = "basic"\n}\naction refund {\n${rules}}\ntest "t" {\n  action refund\n  context { ${context} }\n  expect ${outcome}\n}\n`;
}

const matches = (shape: RuleShape, amount: number, plan: string) => shape.amount.holds(amount, plan) && (shape.plan?.holds(amount, plan) ?? true);

describe('a test expecting an outcome no rule can give in its context (ADEC4026)', () => {
  const shapes = AMOUNT_CONDITIONS.flatMap((amount) => PLAN_CONDITIONS.flatMap((plan) => (plan === undefined ? [{ amount, planApplies: false }] : [false, true].map((planApplies): RuleShape => ({ amount, plan, planApplies })))));
  const ruleSets = [...shapes.map((s) => [s]), ...shapes.filter((_, i) => i % 4 === 0).flatMap((a) => shapes.filter((_, i) => i % 5 === 1).map((b) => [a, b]))];
  const cases = ['RED', 'GREEN-SKIP'].flatMap((outcome) => ruleSets.flatMap((rules) => AMOUNTS.flatMap((amount) => [undefined, ...PLANS].map((plan) => [outcome, rules, amount, plan] as const))));

  it(`refuses the test exactly when every rule of the outcome is false for the values given (${cases.length} generated)`, () => {
    for (const [outcome, rules, amount, plan] of cases) {
      const source = world(outcome, rules, amount, plan);
      // The plan the test leaves out is the default, but the check knows only what the test gives.
      const open = plan === undefined ? PLANS : [plan];
      const false_ = rules.map((rule) => !open.some((p) => matches(rule, amount, p)));
      const expectLine = source.split('\n').findIndex((line) => line.startsWith('  expect ')) + 1;
      const expected = false_.every(Boolean)
        ? [[expectLine, 10, `test \`t\` expects ${outcome}, but no ${outcome} rule of action \`refund\` can match the context it gives`, ...rules.map((rule, i) => `rule \`r${i}\`: its \`${rule.plan !== undefined && rule.planApplies && !open.some((p) => rule.plan!.holds(amount, p)) ? 'applies_when' : 'when'}\` is false for the values the test gives`)]]
        : [];
      const errors = check(source).diagnostics.filter((d) => d.code === 'ADEC4026');
      expect(errors.map((d) => [d.span.line, d.span.column, d.message, ...(d.notes ?? [])]), source).toEqual(expected);
    }
  });
});
