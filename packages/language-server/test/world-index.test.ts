/**
 * The language server resolves names as the checker does. On every example world, each
 * name the checker resolved (a `ref`, a `field`, a built-in `call`, an enum literal it
 * compared) is, in the server's index, a reference to a declaration of that name whose
 * declared type is the one the checker gave it; each rule named by `suppresses` or
 * `expect … by` and each skill named by `fallback` resolves to its declaration.
 */
import { BUILTIN_NAMES, checkSources, formatType, type Type } from '@adec/compiler';
import type { Span } from '@adec/diagnostics';
import { describe, expect, test } from 'vitest';
import { buildWorldIndex } from '../src/symbols/world-index.js';
import { BUILTIN_FUNCTIONS } from '../src/symbols/builtins.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';

interface Node {
  readonly kind: string;
  readonly span: Span;
  readonly [key: string]: unknown;
}

/** Every object with a `kind` and a `span` reachable from `root` (iteratively). */
function nodes(root: unknown): Node[] {
  const found: Node[] = [];
  const seen = new Set<unknown>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (typeof record['kind'] === 'string' && typeof record['span'] === 'object') found.push(record as unknown as Node);
    stack.push(...Object.values(record));
  }
  return found;
}

/** A declared type as written, without the `?` a guard or an optional object adds or removes. */
const present = (text: string | undefined) => text?.replace(/\?$/, '');

describe.each(['examples/benefits', 'examples/fitness'])('%s', (world) => {
  const sources = loadWorldFromDir(world);
  const result = checkSources(sources);
  const index = buildWorldIndex(result.files, new Map(sources.files.map((f) => [f.path, f.text])));

  test('the world checks clean, so every name below was resolved by the checker', () => {
    expect(result.world).toBeDefined();
  });

  test('every name and field the checker resolved is a reference to its declaration, with the checker\'s type', () => {
    const mismatches: string[] = [];
    let resolved = 0;
    for (const node of nodes(result.world)) {
      const where = `${node.kind} at ${node.span.file}:${node.span.line}:${node.span.column}`;
      const name = node['name'] as string | undefined;
      const type = node['type'] as Type | undefined;
      let offset: number;
      if (node.kind === 'ref' || node.kind === 'call') offset = node.span.offset;
      else if (node.kind === 'field') offset = node.span.endOffset - 1;
      else continue;
      resolved++;
      const occurrence = index.occurrenceAt(node.span.file, offset);
      const target = occurrence?.targets[0];
      if (target === undefined || occurrence?.isDeclaration) {
        mismatches.push(`${where}: \`${name}\` is not a reference`);
      } else if (target.name !== name) {
        mismatches.push(`${where}: \`${name}\` resolves to \`${target.name}\``);
      } else if (node.kind !== 'call' && target.kind !== 'root' && type !== undefined && target.typeText !== undefined && present(formatType(type)) !== present(target.typeText)) {
        mismatches.push(`${where}: \`${name}\` is ${formatType(type)} to the checker, ${target.typeText} to the index`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(resolved).toBeGreaterThan(20);
  });

  test('every string literal compared with an enum is a reference to the enum member', () => {
    const missing: string[] = [];
    for (const node of nodes(result.world)) {
      if (node.kind !== 'compare') continue;
      const sides = [node['left'], node['right']] as { kind: string; type: Type; value?: unknown; span: Span }[];
      for (const [a, b] of [sides, [...sides].reverse()]) {
        const enumType = a!.type.kind === 'optional' ? a!.type.inner : a!.type;
        if (enumType.kind !== 'enum' || b!.kind !== 'literal' || typeof b!.value !== 'string') continue;
        const target = index.occurrenceAt(b!.span.file, b!.span.offset + 1)?.targets[0];
        if (target?.kind !== 'enum-member' || target.name !== b!.value) missing.push(`${b!.span.file}:${b!.span.line}:${b!.span.column} ${JSON.stringify(b!.value)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('rules in `suppresses` and `expect … by`, and `fallback` skills, resolve to their declarations', () => {
    const unresolved: string[] = [];
    for (const node of nodes(result.files)) {
      const names =
        node.kind === 'SuppressesClause' ? (node['rules'] as { name: string; span: Span }[]).map((r) => ['rule', r] as const)
        : node.kind === 'TestExpectStatus' && node['rule'] !== undefined ? [['rule', node['rule'] as { name: string; span: Span }] as const]
        : node.kind === 'SkillFallback' ? [['skill', node['skill'] as { name: string; span: Span }] as const]
        : [];
      for (const [kind, ref] of names) {
        const target = index.occurrenceAt(ref.span.file, ref.span.offset)?.targets[0];
        if (target?.kind !== kind || target.name !== ref.name || target.span === undefined) unresolved.push(`${kind} ${ref.name} at ${ref.span.file}:${ref.span.line}`);
      }
    }
    expect(unresolved).toEqual([]);
  });
});

test('hover describes every built-in function of the registry, with its parameters and result', () => {
  expect([...BUILTIN_FUNCTIONS.keys()]).toEqual(BUILTIN_NAMES);
  expect(BUILTIN_FUNCTIONS.get('clamp')?.signature).toBe('clamp(value, min, max): int | float');
  expect(BUILTIN_FUNCTIONS.get('in_days')?.signature).toBe('in_days(d): float');
  expect(BUILTIN_FUNCTIONS.get('days')?.signature).toBe('days(n): duration');
});

test('names like Object.prototype members resolve like any other', () => {
  const text = [
    'world { org "a" domain "b" version "1.0.0" }',
    'context {',
    '  supplied constructor: int',
    '  supplied __proto__: "valueOf" | "toString"',
    '}',
    'action toString {',
    '  rule valueOf { outcome RED severity t2 when constructor > 1 and __proto__ == "toString" reason "{constructor}" }',
    '  rule hasOwnProperty { outcome RED severity t2 when constructor > 2 reason "y" suppresses valueOf }',
    '}',
  ].join('\n');
  const result = checkSources({ root: 'w', files: [{ path: 'w/w.adec', text }] });
  const index = buildWorldIndex(result.files, new Map([['w/w.adec', text]]));
  const at = (needle: string, delta = 0) => index.occurrenceAt('w/w.adec', text.indexOf(needle) + delta)?.targets[0];
  expect(at('constructor > 1')).toMatchObject({ kind: 'attribute', name: 'constructor', typeText: 'int' });
  expect(at('__proto__ ==')).toMatchObject({ kind: 'attribute', name: '__proto__' });
  expect(at('"toString" reason', 1)).toMatchObject({ kind: 'enum-member', name: 'toString' });
  expect(at('{constructor}', 1)).toMatchObject({ kind: 'attribute', name: 'constructor' });
  expect(at('suppresses valueOf', 'suppresses '.length)).toMatchObject({ kind: 'rule', name: 'valueOf' });
  expect(index.actions.get('toString')?.rules.get('hasOwnProperty')?.kind).toBe('rule');
  expect(index.actions.get('constructor')).toBeUndefined();
});
