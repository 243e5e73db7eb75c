/**
 * End to end from source text: check (the real checker) → generate → typecheck → bundle →
 * evaluate in a bare `node:vm` context, deciding each golden test of the example worlds with a
 * minimal winner_takes_all harness.
 */
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL_NAME, bundleModule } from '../../src/bundle/index.js';
import { checkSources } from '../../src/check-sources.js';
import { findForbiddenConstructs, generateModule, typecheckModule } from '../../src/generate/index.js';
import type { CheckedAction, CheckedWorld, JsonValue, RuleOutcome, Type } from '../../src/model/index.js';
import { isWorldLoadError, loadWorld } from '../../src/sources/load-world.js';
import type { WorldSources } from '../../src/sources/world-sources.js';
import { LANGUAGE_BENEFITS_EXAMPLE } from '../language-example.js';

type Ctx = Record<string, unknown>;
interface Loaded {
  _ACTIONS: Record<string, { rules: string[]; computed: string[] }>;
  _RULE_FUNCTIONS: Record<string, (ctx: Ctx) => { matched: boolean; reason?: string }>;
  _RULE_APPLIES_WHEN: Record<string, (ctx: Ctx) => boolean>;
  _RULE_OUTCOME: Record<string, RuleOutcome>;
  _RULE_SEVERITY: Record<string, string>;
  _RULE_SUPPRESSES: Record<string, string[]>;
  _COMPUTED: Record<string, Record<string, (ctx: Ctx) => unknown>>;
}


async function compile(sources: WorldSources) {
  const checked = checkSources(sources);
  expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const world = checked.world!;
  const relative = sources.files.map((f) => (f.path.startsWith(`${sources.root}/`) ? f.path.slice(sources.root.length + 1) : f.path));
  const source = generateModule(world, { compilerVersion: '0.1.0', sources: relative });
  const bundle = await bundleModule(source);
  return { world, source, bundle };
}

function load(bundle: string): Loaded {
  return runInContext(`${bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as Loaded;
}

/** Wire value → run-time value (what the runtime's context binding does). */
function bind(type: Type, value: JsonValue | undefined): unknown {
  if (value === undefined || value === null) return null;
  const inner = type.kind === 'optional' ? type.inner : type;
  if (inner.kind === 'timestamp' && typeof value === 'string') return Date.parse(value);
  if (inner.kind === 'duration' && typeof value === 'string') {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(value);
    const unitsMs: Readonly<Record<string, number>> = { ms: 1, s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 };
    const unit = unitsMs[match?.[2] ?? ''] ?? NaN;
    return Number(match?.[1]) * unit;
  }
  return value;
}

const RESTRICTIVENESS: readonly RuleOutcome[] = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'];

/** winner_takes_all over the module's registries (no error floor: nothing throws here). */
function decide(mod: Loaded, action: CheckedAction, context: Record<string, JsonValue>, system: Record<string, JsonValue>) {
  const ctx: Ctx = { request_time: Date.parse('2026-06-01T12:00:00Z'), request_id: 'req-1', authenticated_caller: 'tester' };
  for (const a of action.context) {
    if (a.source === 'supplied') ctx[a.name] = bind(a.type, context[a.name] ?? a.defaultValue);
    if (a.source === 'system' && system[a.name] !== undefined) ctx[a.name] = bind(a.type, system[a.name]);
  }
  const spec = mod._ACTIONS[action.name]!;
  for (const name of spec.computed) ctx[name] = mod._COMPUTED[action.name]![name]!(ctx);
  let matched = spec.rules.filter((id) => (mod._RULE_APPLIES_WHEN[id]?.(ctx) ?? true) && mod._RULE_FUNCTIONS[id]!(ctx).matched);
  const suppressed = new Set(matched.flatMap((id) => mod._RULE_SUPPRESSES[id] ?? []));
  matched = matched.filter((id) => mod._RULE_SEVERITY[id] === 't1' || !suppressed.has(id));
  if (matched.length === 0) return { status: 'GREEN' as RuleOutcome, rule: undefined };
  const tier = ['t1', 't2', 't3'].find((t) => matched.some((id) => mod._RULE_SEVERITY[id] === t));
  const inTier = matched.filter((id) => mod._RULE_SEVERITY[id] === tier);
  const rank = (id: string) => RESTRICTIVENESS.indexOf(mod._RULE_OUTCOME[id]!);
  const winner = inTier.reduce((best, id) => (rank(id) > rank(best) ? id : best));
  return { status: mod._RULE_OUTCOME[winner]!, rule: winner };
}

function goldenCases(world: CheckedWorld, mod: Loaded) {
  return world.tests.flatMap((test) => {
    if (test.kind !== 'adjudication') return [];
    const action = world.actions.find((a) => a.name === test.action)!;
    if (action.aggregation.mode !== 'winner_takes_all') return [];
    const got = decide(mod, action, test.context, test.system);
    return [{ name: test.name, got: { status: got.status, rule: test.expectRule === undefined ? undefined : got.rule }, want: { status: test.expectStatus, rule: test.expectRule } }];
  });
}

describe('from source text', () => {
  it('compiles the LANGUAGE.md example and decides its golden test', async () => {
    const { world, source, bundle } = await compile({ root: 'world', files: [{ path: 'world/rules.adec', text: LANGUAGE_BENEFITS_EXAMPLE }] });
    expect(source).toContain('// rules.adec:19 - rule child_under_26 (GREEN, t2)');
    expect(typecheckModule(source)).toEqual([]);
    expect(findForbiddenConstructs(source)).toEqual([]);
    const mod = load(bundle);
    const result = mod._RULE_FUNCTIONS['ineligible_over_age']!({ relationship: 'child', dependent_age: 27, over_age: true, full_time_student: null });
    expect(result.reason).toBe('Children aged 26 or more are not eligible');
    const cases = goldenCases(world, mod);
    expect(cases).toHaveLength(1);
    for (const c of cases) expect(c.got, c.name).toEqual(c.want);
  });

  it.each(['examples/benefits', 'examples/fitness'])('builds %s: clean module, golden adjudication tests pass', async (dir) => {
    const sources = await loadWorld(dir);
    if (isWorldLoadError(sources)) throw new Error(`cannot load ${dir}`);
    const { world, source, bundle } = await compile(sources);
    expect(typecheckModule(source)).toEqual([]);
    expect(findForbiddenConstructs(source)).toEqual([]);
    expect(findForbiddenConstructs(bundle)).toEqual([]);
    const cases = goldenCases(world, load(bundle));
    if (world.actions.length > 0) expect(cases.length).toBeGreaterThan(5);
    for (const c of cases) expect(c.got, c.name).toEqual(c.want);
  });
});
