import { describe, expect, it } from 'vitest';
import { CATALOGUE, DIAGNOSTIC_CODES, closestMatch, editDistance } from '@adec/diagnostics';

describe('the diagnostic catalogue', () => {
  it('uses the documented code ranges and severities', () => {
    for (const code of DIAGNOSTIC_CODES) {
      expect(code).toMatch(/^ADEC[1-59]\d{3}$/);
      const expected = code.startsWith('ADEC5') ? 'warning' : 'error';
      expect(CATALOGUE[code].severity, code).toBe(expected);
    }
  });

  it('follows the message style: lowercase start, no final period', () => {
    for (const code of DIAGNOSTIC_CODES) {
      const { message } = CATALOGUE[code];
      expect(message, code).not.toMatch(/\.$/);
      expect(message[0], code).not.toMatch(/[A-Z]/);
    }
  });
});

describe('did you mean', () => {
  it('suggests the closest plausible candidate', () => {
    expect(closestMatch('chlid', ['child', 'spouse', 'domestic_partner'])).toBe('child');
    expect(closestMatch('green', ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'])).toBe('GREEN');
    expect(closestMatch('GREEN_SKIP', ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'])).toBe('GREEN-SKIP');
    expect(closestMatch('dependent_agee', ['dependent_age', 'relationship'])).toBe('dependent_age');
  });

  it('stays silent when nothing is close', () => {
    expect(closestMatch('banana', ['child', 'spouse'])).toBeUndefined();
    expect(closestMatch('x', [])).toBeUndefined();
  });

  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('chlid', 'child')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
