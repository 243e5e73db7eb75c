/**
 * The index and the checker agree on every name, so that they cannot drift apart again: on
 * the example and test worlds, each name the checker declares is a symbol the index declares
 * at the same place, each name the checker resolves is a reference in the index to the
 * declarations the checker bound it to, and in a world that checks clean every identifier
 * and every name in an expression is one or the other.
 */
import { bindWorld, checkSources, type BoundTarget } from '@adec/compiler';
import type { Span } from '@adec/diagnostics';
import { describe, expect, test } from 'vitest';
import { buildWorldIndex } from '../src/symbols/world-index.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';

const WORLDS = ['examples/benefits', 'examples/fitness', 'packages/engine/test/worlds/sec-lab', 'packages/engine/test/worlds/selection-lab', 'packages/runtime/test/worlds/conformance'];

/** Every object with a `kind` and a `span` reachable from `root`, with the property that holds it. */
function nodes(root: unknown): { kind: string; span: Span; key: string; parent: string }[] {
  const found: { kind: string; span: Span; key: string; parent: string }[] = [];
  const stack: { value: unknown; key: string; parent: string }[] = [{ value: root, key: '', parent: '' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, key, parent } = item;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const entry of value) stack.push({ value: entry, key, parent });
      continue;
    }
    const record = value as Record<string, unknown>;
    const kind = typeof record['kind'] === 'string' ? record['kind'] : parent;
    if (typeof record['kind'] === 'string' && typeof record['span'] === 'object') found.push({ kind, span: record['span'] as Span, key, parent });
    for (const [k, v] of Object.entries(record)) if (k !== 'span') stack.push({ value: v, key: k, parent: kind });
  }
  return found;
}

const where = (span: Span) => `${span.file}:${span.line}:${span.column}`;
const sameSpan = (a: Span | undefined, b: Span) => a !== undefined && a.file === b.file && a.offset === b.offset && a.endOffset === b.endOffset;

describe.each(WORLDS)('%s', (world) => {
  const sources = loadWorldFromDir(world);
  const result = checkSources(sources);
  const bindings = bindWorld(result.files);
  const index = buildWorldIndex(result.files, new Map(sources.files.map((f) => [f.path, f.text])));

  test('checks clean', () => {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('each name the checker declares, the index declares at the same place', () => {
    const missing = bindings.declarations.flatMap((declaration) => {
      const occurrence = index.occurrenceAt(declaration.span.file, declaration.span.offset);
      const symbol = occurrence?.targets[0];
      return occurrence?.isDeclaration === true && sameSpan(occurrence.span, declaration.span) && symbol?.name === declaration.name ? [] : [`${declaration.kind} ${declaration.name} at ${where(declaration.span)}`];
    });
    expect(missing).toEqual([]);
    expect(bindings.declarations.length).toBeGreaterThan(20);
  });

  test('each name the checker resolves is a reference to the declarations it bound the name to', () => {
    const declaredAt = (target: BoundTarget) => (target.kind === 'declaration' ? target.span : undefined);
    const wrong = bindings.references.flatMap((reference) => {
      const occurrence = index.occurrenceAt(reference.span.file, reference.span.offset);
      const spans = occurrence?.targets.map((t) => t.span);
      const agrees =
        occurrence !== undefined &&
        !occurrence.isDeclaration &&
        sameSpan(occurrence.span, reference.span) &&
        occurrence.targets.length === reference.targets.length &&
        reference.targets.every((target, i) => {
          const declared = declaredAt(target);
          return declared === undefined ? occurrence.targets[i]!.span === undefined || target.kind === 'root' : sameSpan(spans?.[i], declared);
        });
      return agrees ? [] : [`${where(reference.span)}: ${JSON.stringify(reference.targets.map((t) => t.kind))}`];
    });
    expect(wrong).toEqual([]);
    expect(bindings.references.length).toBeGreaterThan(20);
  });

  test('completion offers, at each place, every name the checker makes visible there', () => {
    const offered = (kind: string, owner: Span | undefined) => {
      const ownedBy = <E extends { readonly symbol: { readonly span?: Span } }>(entries: ReadonlyMap<string, E>) => [...entries.values()].find((e) => owner !== undefined && sameSpan(e.symbol.span, owner));
      switch (kind) {
        case 'shared-context': return index.sharedScope;
        case 'action': return ownedBy(index.actions)?.scope;
        case 'skill-input': return ownedBy(index.skills)?.inputScope;
        case 'skill-invariant': return ownedBy(index.skills)?.invariantScope;
        default: return ownedBy(index.scenarios)?.scope;
      }
    };
    const wrong = bindings.scopes.flatMap((scope) => {
      const names = offered(scope.kind, scope.owner)?.names().map((s) => s.name);
      const expected = scope.names.map((n) => n.name);
      return JSON.stringify(names) === JSON.stringify(expected) ? [] : [`${scope.kind} ${scope.owner === undefined ? '' : where(scope.owner)}: ${JSON.stringify(names)} offered, ${JSON.stringify(expected)} visible`];
    });
    expect(wrong).toEqual([]);
    expect(bindings.scopes.length).toBeGreaterThan(1);
  });

  test('every identifier and every name in an expression is a declaration or a resolved reference', () => {
    // Words of the language, which name no declaration: a header setting, a scalar type, an aggregation mode, a work_frame field, a risk factor.
    const notNames = new Set(['WorldSetting.key', 'NamedType.name', 'AggregationClause.mode', 'WorkFrameFieldDecl.name', 'ExecutionRiskDecl.name']);
    const unresolved = nodes(result.files).flatMap((node) => {
      const named = node.kind === 'Identifier' || node.kind === 'NameExpr';
      if (!named || node.span.endOffset <= node.span.offset || notNames.has(`${node.parent}.${node.key}`)) return [];
      const occurrence = index.occurrenceAt(node.span.file, node.span.offset);
      return occurrence !== undefined && sameSpan(occurrence.span, node.span) ? [] : [`${node.parent}.${node.key} at ${where(node.span)}`];
    });
    expect(unresolved).toEqual([]);
  });
});

describe('while the author types, names the checker stops at still resolve', () => {
  /** The world at `dir` with `edit` applied to `file`, indexed; and what the name at `needle` (`delta` in) refers to. */
  function edited(dir: string, file: string, edit: (text: string) => string) {
    const sources = loadWorldFromDir(dir);
    const files = sources.files.map((f) => (f.path.endsWith(file) ? { ...f, text: edit(f.text) } : f));
    const result = checkSources({ ...sources, files });
    const text = files.find((f) => f.path.endsWith(file))!;
    const index = buildWorldIndex(result.files, new Map(files.map((f) => [f.path, f.text])));
    const targetsAt = (needle: string, delta = 0) => {
      expect(text.text.indexOf(needle), needle).toBeGreaterThanOrEqual(0);
      return index.occurrenceAt(text.path, text.text.indexOf(needle) + delta)?.targets.map((t) => `${t.kind} ${t.name}`) ?? [];
    };
    return { diagnostics: result.diagnostics, targetsAt };
  }

  test('two tests run together (the end of one and the start of the next deleted): the second one\'s names', () => {
    const { diagnostics, targetsAt } = edited('examples/benefits', 'submit_claim.tests.adec', (text) =>
      text.replace('  expect  RED by duplicate_claim\n}\n\ntest "a claim filed more than a year after the service is blocked" {\n', ''),
    );
    expect(diagnostics.some((d) => d.code === 'ADEC4009')).toBe(true);
    expect(targetsAt('service_date: "2024-12-01')).toEqual(['attribute service_date']);
    expect(targetsAt('by filed_too_late', 3)).toEqual(['rule filed_too_late']);
  });

  test('a candidate whose type is misspelled: its fields are those of the action types, its enum values their members', () => {
    const { diagnostics, targetsAt } = edited('examples/fitness', 'tests.adec', (text) => text.replace('{ action_id: "yoga-30", type: "workout_session"', '{ action_id: "yoga-30", type: "workout_sesion"'));
    expect(diagnostics.some((d) => d.code === 'ADEC2005')).toBe(true);
    expect(targetsAt('session_name: "Morning Yoga"')).toEqual(['field session_name', 'field session_name']);
    expect(targetsAt('intensity: "low"')).toEqual(['field intensity']);
    expect(targetsAt('"low", duration_minutes: 30', 1)).toEqual(['enum-member low']);
  });
});
