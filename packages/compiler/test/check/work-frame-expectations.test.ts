/**
 * A test expecting a work frame value the expected status's `on STATUS { … }` sets otherwise can
 * never pass (ADEC4026 at the value): typically a value copied from another status's template.
 * Fields the template leaves to the defaults, and `next_action` (missing evidence replaces it),
 * are left to `adec test`.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const FRAMES = 'on RED {\n    mode "blocked"\n    next_human_owner "fraud"\n    forbidden_actions ["refund"]\n  }\n  on YELLOW {\n    mode "review"\n    next_human_owner "desk"\n    forbidden_actions []\n    next_action "call"\n  }';

function world(status: 'RED' | 'YELLOW', expectation: string): string {
  return `${HEADER}context { supplied amount: int(0..1000) }\naction refund {\n  rule big {\n    outcome ${status}\n    severity t2\n    when amount > 500\n    reason "big"\n  }\n  ${FRAMES}\n}\ntest "t" {\n  action refund\n  context { amount: 900 }\n  expect ${status} by big\n  expect work_frame { ${expectation} }\n}\n`;
}

const errors = (source: string) => check(source).diagnostics.filter((d) => d.severity === 'error').map((d) => [d.code, d.message]);

describe('work frame expectations against the status template (ADEC4026)', () => {
  // Generated: each field, expecting the other status's value (refused) or its own (accepted).
  const values = { mode: ['"blocked"', '"review"'], next_human_owner: ['"fraud"', '"desk"'], forbidden_actions: ['["refund"]', '[]'] } as const;
  const cases = (['RED', 'YELLOW'] as const).flatMap((status) => Object.entries(values).map(([field, [red, yellow]]) => [status, field, status === 'RED' ? red : yellow, status === 'RED' ? yellow : red] as const));
  it.each(cases)('a %s test expecting %s: its own value passes, the other status\'s is refused', (status, field, own, other) => {
    expect(errors(world(status, `${field}: ${own}`))).toEqual([]);
    expect(errors(world(status, `${field}: ${other}`))).toEqual([['ADEC4026', `test \`t\` expects work_frame.${field} ${JSON.stringify(JSON.parse(other))}, which a ${status} decision of \`refund\` never has`]]);
  });

  it('leaves next_action and fields the template does not set to adec test', () => {
    expect(errors(world('YELLOW', 'next_action: "gather_evidence_and_retry", required_output: ["x"]'))).toEqual([]);
  });
});
