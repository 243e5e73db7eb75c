/**
 * Classes of hostile code, each generated broadly (fast-check) and put into both examples'
 * bundles where generated code stands: an expression in place of an operand of any generated
 * function (wrapped in generated operators, so the refusal must come from the payload), a
 * property in any data object of a registry, a statement between any two of the module's
 * statements or around the IIFE, a character or comment at any space. Every one is refused, the
 * refusal pointing into what was put in. ADEC_PROPERTY_SEED, ADEC_PROPERTY_RUNS as elsewhere.
 */
import { verifyGeneratedCode } from '@adec/runtime';
import { parse, tokenizer, type Node } from 'acorn';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildFixture } from '../../../../test/support/runtime.js';
import { describeVerdict, offsetOf, spliced } from './verified-bundles.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_127 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 150 : Number(process.env['ADEC_PROPERTY_RUNS']);

/** Expression payloads of each class; `$` is the operand they replace (a read of a parameter). */
const EXPRESSION_CLASSES: Readonly<Record<string, readonly string[]>> = {
  loops: [
    '(() => { for (;;) {} })()',
    '(() => { while ($) {} return $; })()',
    '(() => { do {} while (true); })()',
    '(() => { for (const k in $) {} })()',
    '(() => { for (const k of [$]) {} })()',
    '((f) => f(f))((f) => f(f))',
    '[$].map(function f(x) { return f(x); })',
    '(function* () { for (;;) yield $; })().next().value',
  ],
  'allocation builtins': [
    'Array(2 ** 30)',
    'new Array($)',
    '"x".repeat(2 ** 28)',
    'String($).repeat(1e9)',
    '$.padStart(2 ** 30)',
    '$.padEnd(2 ** 30, "x")',
    'Array.from({ length: 1e9 })',
    '[...Array(1e9)]',
    '[...$, ...$]',
    'new ArrayBuffer(2 ** 31)',
    'new Uint8Array(1e9)',
    '$.concat($)',
    '[$].join("x")',
    'JSON.stringify($)',
    '$.split("")',
    'Object.keys($)',
    // A chain block that doubles its value, nested: 2^depth times the input.
    '((left) => left + left)($)',
    '((left) => ((left2) => left2 + left2)(left + left))($)',
    '((left) => `${left}${left}`)($)',
    '((left) => [left, left])($)',
  ],
  'global access': [
    'globalThis',
    'this',
    'Function("return this")()',
    'eval("1")',
    '$.constructor.constructor("return process")()',
    '(() => 0).constructor("return this")()',
    'process',
    'require("node:fs")',
    'import("node:fs")',
    'self',
    'Reflect.ownKeys($)',
    'Proxy',
    'Symbol.iterator',
    'Date.now()',
    'Intl.DateTimeFormat()',
    'WebAssembly',
    'queueMicrotask(() => 0)',
    'Math.random()',
    'Math.pow($, 2)',
    'String.fromCharCode(65)',
    'undefined',
    'NaN',
    'isIn',
    'RE_999.test($)',
    '__adec_module',
    'module_exports',
    '__defProp($, "x", {})',
  ],
  'assignment and mutation': [
    '($.x = 1)',
    '($.x += 1)',
    '$.x++',
    '--$.x',
    'delete $.x',
    '($ = 1)',
    '([$.x] = [1])',
    '({ a: $.x } = { a: 1 })',
    'Object.defineProperty($, "x", {})',
    'Object.assign($, {})',
    '[$].push(1)',
    '$.sort()',
    '$.reverse()',
    '($, 1)',
    'void $',
    'typeof $',
    '$ in $',
    '$ instanceof $',
    '$ ** 2',
    '$ | 0',
    '~$',
    '+$',
    '$ == 1',
    '$ != "x"',
    '`${$}`',
    'String`x`',
    '$?.()',
    '$[$]',
    '$[0]',
  ],
  'names reaching prototypes': [
    '$.__proto__',
    '$.constructor',
    '$["constructor"]',
    '$?.prototype',
    '$.__defineGetter__',
    '$["__proto__"]',
    '$.caller',
    '$.arguments',
    '$.callee',
    '$.valueOf',
    '$.toString',
    '$?.["__lookupGetter__"]',
    '$.hasOwnProperty',
    '$.propertyIsEnumerable',
    '$.call',
    '$.bind',
    '$.x.apply',
    '$["\\u0063onstructor"]',
  ],
  'unicode escapes in names': ['\\u0065val("1")', '$.\\u0063onstructor', '\\u{67}lobalThis', '$.\\u005f_proto__', '$.x\\u0079', '\\u0063tx'],
  'non-ASCII': ['$.caf\u00e9', '"\u00e9"', '$ \u2028', '\ufeff$', '$\u200b', '"\t"', '$\r', '"\u0000"', '\u0430ction'],
  'comments hiding code': ['$ /* x */', '/* */$', '$ /** @type {never} */', '$ /*\n*/', '$ <!-- x\n', '$\n--> x\n'],
};

/** Properties put into a data object of a registry. */
const DATA_PROPERTIES = [
  'get x() { return 1; }',
  'set x(v) {}',
  'x() {}',
  'async x() {}',
  '*x() {}',
  '[k]: 1',
  '["a" + "b"]: 1',
  '[Symbol.iterator]: 1',
  '...globalThis',
  'globalThis',
  '__proto__: null',
  '"__proto__": {}',
  'x: () => 1',
  'x: ctx',
  'x: `t`',
  'x: 1 + 1',
  'x: /re/',
  'x: 1n',
  'x: [,]',
  'x: [...[1]]',
  'x: !1',
  'x: -"1"',
  'x: new Date()',
  'x: { get y() { return 1; } }',
  '\\u0078: 1',
];

/** Statements put between two statements of the module, before the IIFE or after it. */
const STATEMENTS = [
  'for (;;) {}',
  'while (true) {}',
  'globalThis.x = 1;',
  'var RE_99 = /x/;',
  'var _WORLD = {};',
  'var NOT_MATCHED = {};',
  'function isIn(element, list) { return true; }',
  'function evil() {}',
  '"use strict";',
  'debugger;',
  ';',
  'label: {}',
  'if (1) {}',
  'try {} catch {}',
  'class A {}',
  'let x = 1;',
  'const y = 2;',
  'with ({}) {}',
  'throw 1;',
  '__adec_module.x = 1;',
  'module_exports.x = 1;',
  '__export(module_exports, { x: () => 1 });',
  'return 1;',
  'var __adec_module = 1;',
];

interface Places {
  readonly bundle: string;
  /** Operands of generated functions: reads of a parameter (`ctx.x`, `env.y`, …). */
  readonly operands: readonly Node[];
  /** Where a data object of a registry opens (just after its `{`). */
  readonly dataObjects: readonly number[];
  /** Boundaries between the IIFE's statements, and before and after the IIFE. */
  readonly statementGaps: readonly number[];
  /** Spaces between the tokens of the bundle's code (not inside a string or template). */
  readonly spaces: readonly number[];
}

const PARAMETER = /^(ctx|env|action|input|signals|state|left)\d*$/;

function placesIn(bundle: string): Places {
  const program = parse(bundle, { ecmaVersion: 2022, sourceType: 'script' });
  const operands: Node[] = [];
  const dataObjects: number[] = [];
  const iife = program.body[0] as unknown as { start: number; end: number; declarations: [{ init: { callee: { body: { body: Node[] } } } }] };
  const statements = iife.declarations[0].init.callee.body.body;
  const visit = (node: Node, inFunction: boolean): void => {
    const fields = node as unknown as Record<string, unknown>;
    if (inFunction && node.type === 'MemberExpression' && !fields['computed']) {
      const object = fields['object'] as Node & { name?: string };
      if (object.type === 'Identifier' && PARAMETER.test(object.name ?? '')) operands.push(node);
    }
    if (!inFunction && node.type === 'ObjectExpression') dataObjects.push(node.start + 1);
    for (const value of Object.values(fields)) {
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) if (typeof item === 'object' && item !== null && typeof (item as Node).type === 'string') visit(item as Node, inFunction || node.type === 'ArrowFunctionExpression');
    }
  };
  for (const statement of statements) if (bundle.startsWith('var _', statement.start) && !bundle.startsWith('var __', statement.start)) visit(statement, false);
  const statementGaps = [iife.start, iife.end + 1, ...statements.map((s) => s.start)];
  const spaces: number[] = [];
  const comments: [number, number][] = [];
  let previousEnd = 0;
  for (const token of tokenizer(bundle, { ecmaVersion: 2022, onComment: (_block, _text, start, end) => comments.push([start, end]) })) {
    for (let at = previousEnd; at < token.start; at++) {
      if (bundle[at] === ' ' && !comments.some(([start, end]) => at >= start && at < end)) spaces.push(at);
    }
    previousEnd = token.end;
  }
  return { bundle, operands, dataObjects, statementGaps, spaces };
}

let examples: readonly Places[];
beforeAll(async () => {
  examples = await Promise.all(['examples/benefits', 'examples/fitness'].map(async (example) => placesIn((await buildFixture(example)).bundle)));
});

/** Generated operators around an expression, so the payload sits deep inside a generated one. */
const wrappers = fc.array(fc.constantFrom((x: string) => `!(${x})`, (x: string) => `(${x}) ?? null`, (x: string) => `-(${x})`, (x: string) => `[${x}]`, (x: string) => `(${x}) === 1`, (x: string) => `(true ? ${x} : 2)`, (x: string) => `(${x}) && true`), { maxLength: 3 });

function expectRefusedWithin(bundle: string, from: number, to: number): void {
  const verdict = verifyGeneratedCode(bundle);
  expect(verdict.ok, 'accepted').toBe(false);
  if (verdict.ok) return;
  const at = offsetOf(bundle, verdict.line, verdict.column);
  expect(at >= from && at <= to, `the refusal points outside what was put in (${from}..${to}):\n${describeVerdict(bundle, verdict)}`).toBe(true);
}

describe('classes of hostile code are refused wherever they are put', () => {
  test.each(Object.entries(EXPRESSION_CLASSES))('%s, in place of an operand of a generated function', (_name, payloads) => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.constantFrom(...payloads), wrappers, (which, where, payload, wrap) => {
        const { bundle, operands } = examples[which % examples.length]!;
        const operand = operands[where % operands.length]!;
        const core = payload.replaceAll('$', bundle.slice(operand.start, operand.end));
        const text = `(${wrap.reduce((inner, wrapper) => wrapper(inner), `(${core})`)})`;
        expectRefusedWithin(spliced(bundle, operand.start, operand.end, text), operand.start, operand.start + text.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('getters, setters, methods, computed keys, spreads and code in data literals', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.constantFrom(...DATA_PROPERTIES), (which, where, property) => {
        const { bundle, dataObjects } = examples[which % examples.length]!;
        const at = dataObjects[where % dataObjects.length]!;
        const text = ` ${property}, `;
        expectRefusedWithin(spliced(bundle, at, at, text), at, at + text.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('extra statements in the module or around it', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.constantFrom(...STATEMENTS), (which, where, statement) => {
        const { bundle, statementGaps } = examples[which % examples.length]!;
        const at = statementGaps[where % statementGaps.length]!;
        const text = `${statement}\n`;
        // What a statement displaces may be what is refused: the refusal is at it or at what follows.
        expectRefusedWithin(spliced(bundle, at, at, text), at, bundle.length + text.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('non-ASCII characters and comments at any space', () => {
    const inserted = fc.oneof(
      fc.integer({ min: 0x7f, max: 0xffff }).filter((code) => code < 0xd800 || code > 0xdfff).map((code) => String.fromCharCode(code)),
      fc.integer({ min: 0, max: 0x1f }).filter((code) => code !== 0x0a).map((code) => String.fromCharCode(code)),
      fc.constantFrom('/**/', '/* x */', '/*\n*/', '<!-- x\n', '\n--> x\n'),
    );
    fc.assert(
      fc.property(fc.nat(), fc.nat(), inserted, (which, where, text) => {
        const { bundle, spaces } = examples[which % examples.length]!;
        const at = spaces[where % spaces.length]!;
        const edited = spliced(bundle, at, at, text);
        const verdict = verifyGeneratedCode(edited);
        expect(verdict.ok, `${JSON.stringify(text)} at ${at} accepted`).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });
});
