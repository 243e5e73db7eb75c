/**
 * A rule's reason renders only when the rule matched, so a guard in its `when` or
 * `applies_when` that proves an optional attribute present carries into the reason: `{note}` is
 * accepted there. A condition that does not prove it (an `or`, a guard on another attribute)
 * leaves ADEC3007 in place.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

function world(appliesWhen: string | undefined, when: string): string {
  const context = 'context {\n  supplied amount: int(0..1000)\n  supplied note: string?\n  supplied other: string?\n}\n';
  const applies = appliesWhen === undefined ? '' : `    applies_when ${appliesWhen}\n`;
  return `${HEADER}${context}action review {\n  rule noted {\n    outcome YELLOW\n    severity t2\n${applies}    when ${when}\n    reason "Flagged: {note}"\n  }\n}\n`;
}

const errors = (source: string) => check(source).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

describe('a when guard reaches the reason', () => {
  const proving = ['note IS NOT NULL', 'note != null', 'null != note', 'not (note IS NULL)', 'amount > 10 and note IS NOT NULL', 'note IS NOT NULL and amount > 10', '(note IS NOT NULL and amount > 1) and amount < 900', 'not (note IS NULL or amount < 10)'];
  it.each(proving)('accepts {note} when `when %s`', (guard) => {
    expect(errors(world(undefined, guard))).toEqual([]);
  });
  it.each(proving)('accepts {note} when `applies_when %s`', (guard) => {
    expect(errors(world(guard, 'amount > 10'))).toEqual([]);
  });

  const notProving = ['amount > 10', 'note IS NOT NULL or amount > 10', 'other IS NOT NULL', 'note IS NULL', 'not (note IS NOT NULL)', 'note == null or amount > 1'];
  it.each(notProving)('still reports {note} (ADEC3007) when `when %s`', (guard) => {
    expect(errors(world(undefined, guard))).toContain('ADEC3007');
  });
});
