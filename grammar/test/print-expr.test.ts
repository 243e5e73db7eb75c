import { formatExpr } from '@adec/grammar';
import { describe, expect, it } from 'vitest';
import { shape, whenExpr } from './helpers.js';

describe('formatExpr', () => {
  it.each([
    ['a or b and not c', 'a or b and not c'],
    ['(a or b) and c', '(a or b) and c'],
    ['not (a and b)', 'not (a and b)'],
    ['x ?? 0 >= 5', 'x ?? 0 >= 5'],
    ['(x ?? y) ?? z', '(x ?? y) ?? z'],
    ['a - (b - c)', 'a - (b - c)'],
    ['(a - b) - c', 'a - b - c'],
    ['-(a + b) * c', '-(a + b) * c'],
    ['payload.rationale NOT CONTAINS_ANY ["x", "y"]', 'payload.rationale NOT CONTAINS_ANY ["x", "y"]'],
    ['IF a IS NULL THEN b NOT CONTAINS "c"', 'if a IS NULL then b NOT CONTAINS "c"'],
    ['if a then 1 else if b then 2 else 3', 'if a then 1 else if b then 2 else 3'],
    ['clamp(n / 5, 0, 1) > 0.5 and tags CONTAINS "vip"', 'clamp(n / 5, 0, 1) > 0.5 and tags CONTAINS "vip"'],
    ['payload.text LENGTH < 200', 'payload.text LENGTH < 200'],
    ['request_time - event_date <= 30d', 'request_time - event_date <= 30d'],
  ])('prints `%s` as `%s`, which parses back to the same tree', (source, printed) => {
    const expr = whenExpr(source);
    expect(formatExpr(expr)).toBe(printed);
    expect(shape(whenExpr(printed))).toEqual(shape(expr));
  });
});
