/**
 * Generated edits over every function of both examples' bundles (issue 29's acceptance): at
 * positions throughout each function, one edit — an operator changed, a name changed, a bracket
 * changed or dropped, a byte inserted or deleted, a call inserted after a name. The verifier
 * refuses most. An edit that leaves code the generator could have emitted (`26` → `27`, `===` →
 * `!==`, `ctx.a` → `ctx.b`) is rightly accepted: approval's rebuild refuses those
 * (packages/compiler/test/rebuild/). So each edit must be refused, or leave a function that is
 * grammatical by a check independent of the verifier: parsed alone, it holds only the node
 * types and operators the expression emitter writes, no member name of member-names.ts, and no
 * free name the original bundle's functions do not use. Both counts are printed.
 * Every position is edited; ADEC_EDIT_STRIDE=<n> edits every n-th only.
 */
import { verifyGeneratedCode } from '@adec/runtime';
import { parse, parseExpressionAt, type Node } from 'acorn';
import { describe, expect, test } from 'vitest';
import { buildFixture } from '../../../../test/support/runtime.js';
import { spliced } from './verified-bundles.js';

const STRIDE = process.env['ADEC_EDIT_STRIDE'] === undefined ? 1 : Number(process.env['ADEC_EDIT_STRIDE']);

interface FunctionSpan {
  readonly start: number;
  readonly end: number;
  readonly helper: boolean;
}

type EditKind = 'operator' | 'bracket' | 'digit' | 'name' | 'call' | 'punctuation' | 'insertion' | 'deletion';

interface Edit {
  readonly kind: EditKind;
  readonly at: number;
  readonly removed: number;
  readonly text: string;
}

/** The helpers and the registries' functions (not the chain blocks inside them), from the bundle's IIFE. */
function functionsOf(bundle: string): readonly FunctionSpan[] {
  const program = parse(bundle, { ecmaVersion: 2022, sourceType: 'script' });
  const spans: FunctionSpan[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'ArrowFunctionExpression') {
      spans.push({ start: node.start, end: node.end, helper: false });
      return;
    }
    for (const child of children(node)) visit(child);
  };
  const iife = (program.body[0] as unknown as { declarations: [{ init: { callee: { body: { body: Node[] } } } }] }).declarations[0].init.callee.body.body;
  for (const statement of iife) {
    if (statement.type === 'FunctionDeclaration') spans.push({ start: statement.start, end: statement.end, helper: true });
    const text = bundle.slice(statement.start, statement.start + 8);
    if (statement.type === 'VariableDeclaration' && text.startsWith('var _') && !text.startsWith('var __')) visit(statement);
  }
  return spans;
}

function children(node: Node): Node[] {
  const found: Node[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) found.push(item);
    } else if (isNode(value)) {
      found.push(value);
    }
  }
  return found;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

const OPERATORS = '=!<>&|?+-*/%';
const BRACKETS = '()[]{}';
const INSERTIONS = ['(', ')', '.', ',', '!', '-', '=', '[', '`', ';', '~', '"'];

/** One edit at `at`, of a kind chosen by the byte there and `turn` (so positions rotate through kinds). */
function editAt(bundle: string, at: number, turn: number): Edit {
  const byte = bundle[at]!;
  const replace = (kind: EditKind, options: string): Edit => {
    const others = Array.from(options).filter((c) => c !== byte);
    return { kind, at, removed: 1, text: others[turn % others.length]! };
  };
  if (turn % 5 === 4) return { kind: 'deletion', at, removed: 1, text: '' };
  if (turn % 5 === 3) return { kind: 'insertion', at, removed: 0, text: INSERTIONS[Math.floor(turn / 5) % INSERTIONS.length]! };
  if (OPERATORS.includes(byte)) return replace('operator', OPERATORS);
  if (BRACKETS.includes(byte)) return replace('bracket', BRACKETS);
  if (/[0-9]/.test(byte)) return replace('digit', '0123456789');
  if (/[A-Za-z_$]/.test(byte)) {
    // A name changed, or a call inserted after a name.
    if (turn % 5 === 2 && !/[\w$]/.test(bundle[at + 1] ?? '')) return { kind: 'call', at: at + 1, removed: 0, text: '()' };
    return replace('name', 'aeqxZ_1');
  }
  return replace('punctuation', '.,: ;"`\'');
}

/** The spans of the bundle's string literals and template text, quotes excluded: an edit there changes data. */
function textSpans(bundle: string): readonly (readonly [number, number])[] {
  const spans: [number, number][] = [];
  const pending: Node[] = [parse(bundle, { ecmaVersion: 2022, sourceType: 'script' })];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.type === 'Literal' && typeof (node as unknown as { value: unknown }).value === 'string') spans.push([node.start + 1, node.end - 1]);
    if (node.type === 'TemplateElement') spans.push([node.start, node.end]);
    pending.push(...children(node));
  }
  return spans;
}

/** The node types and operators the expression emitter writes (compiler generate/emit-expr.ts), read independently of the verifier. */
const GENERATED_NODES = new Set([
  'ArrowFunctionExpression',
  'ConditionalExpression',
  'BinaryExpression',
  'LogicalExpression',
  'UnaryExpression',
  'MemberExpression',
  'ChainExpression',
  'CallExpression',
  'Identifier',
  'Literal',
  'TemplateLiteral',
  'TemplateElement',
  'ObjectExpression',
  'Property',
  'ArrayExpression',
]);
const GENERATED_OPERATORS = new Set(['+', '-', '*', '/', '%', '===', '!==', '<', '<=', '>', '>=', '==', '!=', '&&', '||', '??', '!']);
const PROTOTYPE_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'caller', 'callee', 'arguments', 'apply', 'bind', 'call']);

/** Names read as variables (not as members or keys) in `node`. */
function freeNames(node: Node, names: Set<string>, context?: 'member' | 'key'): Set<string> {
  if (node.type === 'Identifier' && context === undefined) names.add((node as unknown as { name: string }).name);
  const fields = node as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    const role = (node.type === 'MemberExpression' && key === 'property' && fields['computed'] === false) ? 'member' : node.type === 'Property' && key === 'key' ? 'key' : undefined;
    if (Array.isArray(value)) for (const item of value) { if (isNode(item)) freeNames(item, names); }
    else if (isNode(value)) freeNames(value, names, role);
  }
  return names;
}

/** Why the function text is not grammatical generated code, or undefined. */
function grammarProblem(text: string, knownNames: ReadonlySet<string>): string | undefined {
  let expression: Node;
  try {
    expression = parseExpressionAt(text, 0, { ecmaVersion: 2022 });
  } catch (error) {
    return `does not parse: ${String(error)}`;
  }
  if (expression.end !== text.length) return 'is not one expression';
  const pending: Node[] = [expression];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const fields = node as unknown as Record<string, unknown>;
    if (!GENERATED_NODES.has(node.type)) return `holds a ${node.type}`;
    if (typeof fields['operator'] === 'string' && !GENERATED_OPERATORS.has(fields['operator'])) return `uses ${fields['operator']}`;
    if (node.type === 'MemberExpression') {
      const property = fields['property'] as Node & { name?: string; value?: unknown };
      const name = fields['computed'] === true ? property.value : property.name;
      if (typeof name === 'string' && PROTOTYPE_NAMES.has(name)) return `reads .${name}`;
    }
    pending.push(...children(node));
  }
  for (const name of freeNames(expression, new Set())) if (!knownNames.has(name)) return `reads \`${name}\``;
  return undefined;
}

describe.each(['examples/benefits', 'examples/fitness'])('one-byte edits over every function of %s', (example) => {
  test('each is refused, or leaves a grammatical generated function', async () => {
    const bundle = (await buildFixture(example)).bundle;
    expect(verifyGeneratedCode(bundle).ok).toBe(true);
    const functions = functionsOf(bundle);
    const knownNames = new Set<string>();
    for (const fn of functions) {
      if (!fn.helper) freeNames(parseExpressionAt(bundle, fn.start, { ecmaVersion: 2022 }), knownNames);
    }
    const texts = textSpans(bundle);
    const inText = (at: number): boolean => texts.some(([start, end]) => at >= start && at < end);
    const counts = { refused: 0, accepted: 0, helperEdits: 0, acceptedInText: 0 };
    const byKind = new Map<EditKind, { refused: number; accepted: number }>();
    const accepted = new Map<EditKind, string>();
    let turn = 0;
    for (const fn of functions) {
      for (let at = fn.start; at < fn.end; at += STRIDE) {
        const edit = editAt(bundle, at, turn++);
        const edited = spliced(bundle, edit.at, edit.at + edit.removed, edit.text);
        if (fn.helper) counts.helperEdits++;
        const tally = byKind.get(edit.kind) ?? { refused: 0, accepted: 0 };
        byKind.set(edit.kind, tally);
        if (!verifyGeneratedCode(edited).ok) {
          counts.refused++;
          tally.refused++;
          continue;
        }
        counts.accepted++;
        tally.accepted++;
        if (inText(edit.at) || /\s/.test(bundle[edit.at]!)) counts.acceptedInText++;
        const text = edited.slice(fn.start, fn.end + edit.text.length - edit.removed);
        const problem = fn.helper ? 'a helper is its library text' : grammarProblem(text, knownNames);
        expect(problem, `accepted edit ${JSON.stringify(bundle.slice(edit.at, edit.at + edit.removed))} → ${JSON.stringify(edit.text)} leaves ${text}`).toBeUndefined();
        if (!accepted.has(edit.kind)) accepted.set(edit.kind, `${edit.kind}: ${JSON.stringify(bundle.slice(edit.at - 12, edit.at + edit.removed + 12))} → ${JSON.stringify(edited.slice(edit.at - 12, edit.at + edit.text.length + 12))}`);
      }
    }
    const total = counts.refused + counts.accepted;
    console.log(
      `${example}: ${functions.length} functions, ${total} edits (every ${STRIDE} byte${STRIDE === 1 ? '' : 's'}; ${counts.helperEdits} in helpers): ` +
        `${counts.refused} refused (${((100 * counts.refused) / total).toFixed(1)}%), ${counts.accepted} accepted as code the generator could have emitted ` +
        `(${counts.acceptedInText} of them in a string's or template's text or whitespace)\n` +
        `  refused/accepted by kind: ${[...byKind].map(([kind, tally]) => `${kind} ${tally.refused}/${tally.accepted}`).join(', ')}\n  ${[...accepted.values()].join('\n  ')}`,
    );
    expect(counts.refused).toBeGreaterThan(counts.accepted);
  }, 600_000);
});
