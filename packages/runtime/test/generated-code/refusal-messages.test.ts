/**
 * What an operator reads when a bundle is refused: the problem names the node or the name, and
 * the line and column are where it stands in the bundle (both from 1).
 */
import { verifyGeneratedCode } from '@adec/runtime';
import { beforeAll, expect, test } from 'vitest';
import { buildFixture } from '../../../../test/support/runtime.js';
import { ruleFunctionSpan, spliced } from './verified-bundles.js';

let bundle: string;
beforeAll(async () => {
  bundle = (await buildFixture('examples/benefits')).bundle;
});

/** The verdict when `fn` stands in place of rule `child_under_26`'s function, with the column relative to the function's start. */
function refusalInRule(fn: string): { problem: string; atInFunction: number } {
  const { start, end } = ruleFunctionSpan(bundle, 'child_under_26');
  const edited = spliced(bundle, start, end, fn);
  const verdict = verifyGeneratedCode(edited);
  if (verdict.ok) throw new Error(`\`${fn}\` was accepted`);
  const line = edited.split('\n')[verdict.line - 1]!;
  expect(edited.split('\n').findIndex((text) => text.includes(fn)) + 1, 'the refusal is on the function\'s line').toBe(verdict.line);
  return { problem: verdict.problem, atInFunction: verdict.column - 1 - line.indexOf(fn) };
}

test.each([
  ['(ctx) => { while (true) {} }', 'a function body in braces is not generated code', 9],
  ['(ctx) => globalThis.x ? MATCHED : NOT_MATCHED', '`globalThis` is not a name generated code reads', 9],
  ['(ctx) => this.x ? MATCHED : NOT_MATCHED', 'a `ThisExpression` is not generated code in a generated function', 9],
  ['(ctx) => new Array(9) ? MATCHED : NOT_MATCHED', 'a `NewExpression` is not generated code in a generated function', 9],
  ['(ctx) => ctx.constructor ? MATCHED : NOT_MATCHED', 'the member `constructor` is not a name generated code reads', 13],
  ['(ctx) => ctx.note.repeat(9) ? MATCHED : NOT_MATCHED', '`.repeat(…)` is not a method generated code calls', 18],
  ['(ctx) => (ctx.x = 1) ? MATCHED : NOT_MATCHED', 'an `AssignmentExpression` is not generated code in a generated function', 10],
  ['(ctx) => ctx.x ? MATCHED : { matched: true }', 'a rule answers `NOT_MATCHED` when it does not match', 27],
  ['(env) => env.x ? MATCHED : NOT_MATCHED', 'a generated function here takes (ctx)', 1],
])('%s', (fn, problem, atInFunction) => {
  expect(refusalInRule(fn)).toEqual({ problem, atInFunction });
});

test('a loop appended after the module is refused at its line and column', () => {
  const edited = `${bundle}while (true) {}\n`;
  expect(verifyGeneratedCode(edited)).toEqual({
    ok: false,
    problem: 'a `WhileStatement` is not generated code after `var __adec_module = (() => { … })();`',
    line: edited.split('\n').length - 1,
    column: 1,
  });
});

test('a block comment is refused where it opens', () => {
  const at = bundle.indexOf('var _WORLD');
  const edited = spliced(bundle, at, at, '/* x */ ');
  const line = edited.slice(0, at).split('\n').length;
  expect(verifyGeneratedCode(edited)).toEqual({ ok: false, problem: 'a `/* */` comment is not generated code', line, column: at - edited.lastIndexOf('\n', at - 1) });
});
