/**
 * ADEC3013, a divisor that may be 0, over generated worlds: divisor forms × guard forms × `/`
 * and `%` × the place the division is written (a rule's `when`, its reason, a computed value,
 * a `when` behind `applies_when`). An unguarded divisor is reported once, at the divisor's line
 * and column, naming it; a guarded one, or one whose declared range or arithmetic keeps it
 * from 0, is accepted with no diagnostic.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@adec/diagnostics';
import { HEADER, check } from './helpers.js';

const CONTEXT = [
  '  context {',
  '    supplied amount: int(0..1000)',
  '    supplied count:  int(0..50)',
  '    supplied seats:  int(1..9)',
  '    supplied rate:   float',
  '    supplied delta:  int',
  '    supplied tags:   list<string>',
];

interface Divisor {
  /** As written after the operator. */
  readonly written: string;
  /** As the message names it (canonical: no parentheses). */
  readonly named: string;
  /** Conditions that prove it non-zero, and conditions whose falsity does. */
  readonly proving: readonly string[];
  readonly disproving: readonly string[];
}

/** Divisors whose type or range lets them be 0. */
const UNSAFE: readonly Divisor[] = [
  { written: 'count', named: 'count', proving: ['count > 0', 'count != 0', '0 < count', 'count >= 1', 'count == 3', 'not (count <= 0)'], disproving: ['count == 0', 'count <= 0', 'not (count > 0)'] },
  { written: 'rate', named: 'rate', proving: ['rate > 0', 'rate != 0', 'rate < 0', 'rate <= -1', 'rate > 0.5'], disproving: ['rate == 0', '0 == rate'] },
  { written: 'delta', named: 'delta', proving: ['delta != 0', 'delta < 0'], disproving: ['delta == 0', 'not (delta != 0)'] },
  { written: '(count - 1)', named: 'count - 1', proving: ['count - 1 > 0', '(count - 1) != 0'], disproving: ['count - 1 == 0'] },
  { written: 'len(tags)', named: 'len(tags)', proving: ['len(tags) > 0', 'len(tags) >= 2'], disproving: ['len(tags) == 0'] },
  { written: 'abs(delta)', named: 'abs(delta)', proving: ['delta != 0', 'delta > 0', 'abs(delta) > 0'], disproving: ['delta == 0'] },
  { written: '(delta * 2)', named: 'delta * 2', proving: ['delta != 0', 'delta * 2 > 0'], disproving: ['delta == 0'] },
  { written: '(count + delta)', named: 'count + delta', proving: ['count + delta != 0'], disproving: ['count + delta == 0'] },
];

/** Divisors never 0 without a guard. */
const SAFE = ['seats', '5', '2.5', '-3', '(count + 1)', 'max(count, 1)', 'clamp(delta, 1, 10)', '(seats * seats)', 'abs(seats)', '(if count > 0 then count else 1)', '(seats - 0.5)', 'min(seats, 4)', '-seats', '(count + seats)'];

const OPERATORS = ['/', '%'] as const;

type Place = 'when' | 'reason' | 'computed' | 'applies_when';
const PLACES: readonly Place[] = ['when', 'reason', 'computed', 'applies_when'];

/**
 * A world dividing by `divisor` in `place`, guarded by `guard`: `proving` (a condition that holds
 * where the division is read) or `disproving` (one that is false there), or not at all.
 */
function world(place: Place, operator: string, divisor: string, guard?: { readonly kind: 'proving' | 'disproving'; readonly condition: string }): string {
  const quotient = `amount ${operator} ${divisor}`;
  const condition = (test: string): string => (guard === undefined ? test : guard.kind === 'proving' ? `${guard.condition} and ${test}` : `${guard.condition} or ${test}`);
  const value = guard === undefined ? quotient : guard.kind === 'proving' ? `if ${guard.condition} then ${quotient} else 0` : `if ${guard.condition} then 0 else ${quotient}`;
  const context = [...CONTEXT, ...(place === 'computed' ? [`    computed share: float = ${value}`] : []), '  }'];
  const rule = ['  rule check {', '    outcome  YELLOW', '    severity t2'];
  switch (place) {
    case 'when':
      rule.push(`    when     ${condition(`${quotient} > 2`)}`, '    reason   "Too large a share"');
      break;
    case 'reason':
      rule.push(`    when     ${guard?.kind === 'proving' ? `${guard.condition} and ` : ''}amount > 10`, `    reason   "Share {${quotient}}"`);
      break;
    case 'computed':
      rule.push('    when     share > 2', '    reason   "Too large a share"');
      break;
    case 'applies_when':
      rule.push(...(guard?.kind === 'proving' ? [`    applies_when ${guard.condition}`] : []), `    when     ${quotient} > 2`, '    reason   "Too large a share"');
      break;
  }
  return `${HEADER}action split {\n${[...context, ...rule, '  }'].join('\n')}\n}\n`;
}

/** Where the divisor starts: the line and column of the first character after `amount <op> ` (and an opening parenthesis). */
function divisorAt(source: string, operator: string, divisor: string): { line: number; column: number } {
  const lines = source.split('\n');
  const needle = `amount ${operator} ${divisor}`;
  const index = lines.findIndex((line) => line.includes(needle));
  const column = lines[index]!.indexOf(needle) + `amount ${operator} `.length + (divisor.startsWith('(') ? 1 : 0) + 1;
  return { line: index + 1, column };
}

const describeDiagnostic = (d: Diagnostic) => `${d.code} ${d.span.line}:${d.span.column} ${d.message}`;

/** The diagnostics but ADEC5006: each world declares every attribute some variant reads. */
const reported = (source: string): Diagnostic[] => check(source).diagnostics.filter((d) => d.code !== 'ADEC5006');

describe('a divisor that may be 0 (ADEC3013)', () => {
  for (const place of PLACES) {
    for (const operator of OPERATORS) {
      it(`is reported at the divisor, unguarded, with \`${operator}\` in a ${place}`, () => {
        for (const divisor of UNSAFE) {
          const source = world(place, operator, divisor.written);
          const { line, column } = divisorAt(source, operator, divisor.written);
          expect(reported(source).map(describeDiagnostic), source).toEqual([`ADEC3013 ${line}:${column} the divisor \`${divisor.named}\` may be 0`]);
        }
      });

      it(`is accepted with \`${operator}\` in a ${place} behind a guard that proves it non-zero`, () => {
        for (const divisor of UNSAFE) {
          const guards = place === 'reason' || place === 'applies_when' ? divisor.proving.map((condition) => ({ kind: 'proving' as const, condition })) : [...divisor.proving.map((condition) => ({ kind: 'proving' as const, condition })), ...divisor.disproving.map((condition) => ({ kind: 'disproving' as const, condition }))];
          for (const guard of guards) {
            const source = world(place, operator, divisor.written, guard);
            expect(reported(source).map(describeDiagnostic), source).toEqual([]);
          }
        }
      });

      it(`is accepted with \`${operator}\` in a ${place} when its range or arithmetic keeps it from 0`, () => {
        for (const divisor of SAFE) {
          const source = world(place, operator, divisor);
          expect(reported(source).map(describeDiagnostic), source).toEqual([]);
        }
      });
    }
  }

  it('is still reported behind a guard on something else, or one that does not exclude 0', () => {
    const weak = ['count >= 0', 'count < 10', 'seats > 0', 'count > -1', 'count != 1', '(count > 0 or amount > 5)', 'rate > 0'];
    for (const condition of weak) {
      const source = world('when', '/', 'count', { kind: 'proving', condition });
      const { line, column } = divisorAt(source, '/', 'count');
      expect(reported(source).map(describeDiagnostic), condition).toEqual([`ADEC3013 ${line}:${column} the divisor \`count\` may be 0`]);
    }
  });

  it('names a zero divisor as always 0, with no guard to suggest', () => {
    for (const operator of OPERATORS) {
      const source = world('when', operator, '0');
      const { line, column } = divisorAt(source, operator, '0');
      const [diagnostic, ...rest] = reported(source);
      expect(rest).toEqual([]);
      expect(describeDiagnostic(diagnostic!)).toBe(`ADEC3013 ${line}:${column} the divisor \`0\` is always 0`);
      expect(diagnostic!.help).toBeUndefined();
    }
  });

  it('says how to guard the divisor, and what a zero does at run time', () => {
    const [diagnostic] = reported(world('reason', '/', 'count'));
    expect(diagnostic!.label).toBe('this is int(0..50)');
    expect(diagnostic!.help).toBe("check it first: `count != 0 and …`, or `if count > 0 then … else …`; a rule's reason may divide by what its `when` proves non-zero");
    expect(diagnostic!.notes).toEqual(['at run time a division by 0 fails the rule, and the decision is at least YELLOW']);
  });

  it('does not add ADEC3013 to an optional divisor, which is ADEC3007 already', () => {
    const source = `${HEADER}action split {\n  context {\n    supplied amount: int\n    supplied count: int?\n  }\n  rule check {\n    outcome YELLOW\n    severity t2\n    when amount / count > 2\n  }\n}\n`;
    expect(reported(source).map((d) => d.code)).toEqual(['ADEC3007']);
  });
});
