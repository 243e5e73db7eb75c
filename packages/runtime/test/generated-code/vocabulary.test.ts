/**
 * The calls the verifier's expression grammar accepts are the ones the built-ins lower to
 * (compiler model/builtins.ts): a built-in added or lowered otherwise fails here, naming it,
 * rather than as a refused bundle.
 */
import { BUILTINS } from '@adec/compiler';
import { expect, test } from 'vitest';
import { MATH_FUNCTIONS, TEXT_METHODS } from '../../src/load/generated-code/expression-grammar.js';

test('Math functions and their arities, and text methods, are those of the built-ins', () => {
  const math = new Map<string, number>();
  const methods = new Set<string>();
  for (const builtin of Object.values(BUILTINS)) {
    const lowering = builtin.lowering;
    if (lowering.kind === 'math') math.set(lowering.function, builtin.parameters.length);
    if (lowering.kind === 'method') methods.add(lowering.method);
    // `days(n)` is `Math.round(n * unit)`.
    if (lowering.kind === 'duration-make') math.set('round', 1);
  }
  expect(new Map([...MATH_FUNCTIONS].sort())).toEqual(new Map([...math].sort()));
  expect([...TEXT_METHODS].sort()).toEqual([...methods].sort());
});
