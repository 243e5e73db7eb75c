/**
 * `expect missing_evidence [x]` can pass only when the test's context leaves `x` out and nothing
 * fills it in: a required supplied attribute. One with a default, an optional one, or one the
 * context gives is never missing, and the test is refused at check (ADEC4026) instead of
 * failing under `adec test` every time.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const KINDS = {
  required: 'supplied x: int(0..100)',
  defaulted: 'supplied x: int(0..100) = 5',
  optional: 'supplied x: int(0..100)?',
} as const;

function world(kind: keyof typeof KINDS, given: boolean): string {
  return `${HEADER}action a {\n  context {\n    ${KINDS[kind]}\n    supplied y: int(0..100)\n  }\n  rule r {\n    outcome RED\n    severity t2\n    when y > 50 and (x ?? 0) >= 0\n    reason "no"\n  }\n}\ntest "t" {\n  action a\n  context { y: 1${given ? ', x: 3' : ''} }\n  expect YELLOW\n  expect missing_evidence [x]\n}\n`;
}

describe('missing evidence a test can never see (ADEC4026)', () => {
  const cases = (Object.keys(KINDS) as (keyof typeof KINDS)[]).flatMap((kind) => [false, true].map((given) => [kind, given] as const));
  it.each(cases)('a %s attribute, given by the context: %s', (kind, given) => {
    const errors = check(world(kind, given)).diagnostics.filter((d) => d.severity === 'error');
    if (kind === 'required' && !given) {
      expect(errors).toEqual([]);
      return;
    }
    const why = given ? "the test's context gives it" : kind === 'defaulted' ? 'it has a default, which fills it in when a request leaves it out' : 'it is optional, so a request without it is complete';
    expect(errors.map((d) => [d.code, d.message])).toEqual([['ADEC4026', `test \`t\` expects \`x\` as missing evidence, which it never is: ${why}`]]);
  });
});
