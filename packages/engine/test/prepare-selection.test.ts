/**
 * Loading a module prepares what its first selection needs (docs/spec/selection.md §7.4): the
 * load reports what it prepared, the first selection afterwards reads the catalogs the load
 * built (no crossing to describe scenarios or skills, no schema compiled), and the warm-ups
 * leave no trace in what a selection answers. Time is the bench's to measure
 * (bench/select/first-selection-bench.mjs), never asserted here.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { Ajv } from 'ajv';
import { compileValueConverter, loadModule, type LoadedModule, type ValueSchema } from '@adec/runtime';
import { llmStubExecutor, prepareSelection, runCycle, SELECTION_EXTENSION, type CycleRequest } from '@adec/engine';
import { sampleValue } from '../src/sample-value.js';
import { asTestBundle, buildFixture, type TestBundle } from '../../../test/support/runtime.js';

const TIMESTAMP = '2026-11-25T12:00:00.000Z';
const DECISION_ID = '5e1ec7ed-0000-4000-8000-000000000001';

/** What each world is asked, and what its load should prepare (counted from its manifest). */
const WORLDS = {
  fitness: {
    path: 'examples/fitness',
    request: {
      scenario: 'fitness_daily_session',
      signals: { sessions_last_7d: 3, rest_days_last_7d: 1, consecutive_high_intensity: 1 },
      actions: [
        { action_id: 'yoga', type: 'workout_session', session_name: 'Morning Yoga', session_type: 'yoga', intensity: 'low', duration_minutes: 30 },
        { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' },
      ],
    },
  },
  'sec-lab': {
    path: 'packages/engine/test/worlds/sec-lab',
    request: { scenario: 'lab_pick', signals: { visits: 4 }, actions: [{ action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 }, { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' }] },
  },
} satisfies Record<string, { path: string; request: CycleRequest }>;
type World = keyof typeof WORLDS;

const bundles = new Map<World, TestBundle>();
const loaded: LoadedModule[] = [];

beforeAll(async () => {
  for (const world of Object.keys(WORLDS) as World[]) bundles.set(world, asTestBundle(await buildFixture(WORLDS[world].path)));
});
afterAll(async () => {
  for (const module of loaded) await module.evaluator.dispose();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The crossings made through a module's evaluator, by entry point. */
interface Counted {
  readonly module: LoadedModule;
  readonly entries: string[];
}

/**
 * `world` loaded in this process, its evaluator counting every crossing. Prepared by the loader's
 * `prepare` hook when asked, exactly as a host prepares it, so the counting evaluator is the one
 * the catalogs are kept for.
 */
async function load(world: World, options: { prepare: boolean; extensions?: readonly string[] }): Promise<Counted> {
  const bundle = bundles.get(world)!;
  const entries: string[] = [];
  const raw = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation: 'in-process', extensions: options.extensions ?? [SELECTION_EXTENSION] });
  if (!raw.ok) throw new Error(raw.message);
  loaded.push(raw.module);
  const inner = raw.module.evaluator;
  const counting: LoadedModule['evaluator'] = {
    evaluate: (...args) => inner.evaluate(...args),
    call: (entry, args, timeLimitMs) => {
      entries.push(entry);
      return inner.call(entry, args, timeLimitMs);
    },
    dispose: () => inner.dispose(),
  };
  const module: LoadedModule = { ...raw.module, evaluator: counting };
  return { module: options.prepare ? { ...module, preparation: await prepareSelection(module) } : module, entries };
}

/** Every schema compiled from now on: on the class every validator of adec derives from (the engine's Ajv, the contracts' Ajv2020). */
function compileSpy() {
  return vi.spyOn(Object.getPrototypeOf(Ajv.prototype) as Ajv, 'compile');
}

const answering = llmStubExecutor((call) => ({ payload: { rationale: `${JSON.stringify(call.input.decision_context.action_metadata['session_name'] ?? 'This')} fits your week: steady effort and good recovery.` } }));

function cycle(module: LoadedModule, world: World, mode: 'deterministic_only' | 'skill_enhanced' = 'deterministic_only') {
  return runCycle(module, { ...WORLDS[world].request, execution_mode_override: mode }, { decisionId: DECISION_ID, timestamp: TIMESTAMP, executors: [answering] });
}

describe('loading prepares what the first selection needs', () => {
  test.each(Object.keys(WORLDS) as World[])('%s: the load reports every scenario and skill read, every output schema compiled, and the warm-ups run', async (world) => {
    const { module } = await load(world, { prepare: true });
    const manifest = bundles.get(world)!.manifest as { scenarios: unknown[]; skills: unknown[] };
    const skills = manifest.skills.length;
    expect(module.preparation).toMatchObject({
      problem: null,
      prepared: { scenarios: manifest.scenarios.length, skills, output_schemas: skills, warm_up_skill_runs: skills },
    });
    // Each world has one scenario of two action types: 2 types × 2 modes per round, 1 to 10
    // rounds (a machine too busy to finish them within the budget stops after the first).
    const cycles = module.preparation!.prepared['warm_up_cycles']!;
    expect(cycles % 4 === 0 && cycles >= 4 && cycles <= 40).toBe(true);
    expect(module.preparation!.durationMs).toBeGreaterThan(0);
  });

  test.each(Object.keys(WORLDS) as World[])('%s: the first selection after a prepared load crosses only to select and run the skill, and compiles no schema', async (world) => {
    const prepared = await load(world, { prepare: true });
    prepared.entries.length = 0;
    const compile = compileSpy();
    for (const mode of ['deterministic_only', 'skill_enhanced'] as const) {
      const result = await cycle(prepared.module, world, mode);
      expect(result.ok && result.outcome).toBe('decided');
    }
    expect(prepared.entries).not.toContain('__adec_scenarios');
    expect(prepared.entries).not.toContain('__adec_skills');
    expect(prepared.entries).toContain('__adec_select');
    expect(compile).not.toHaveBeenCalled();
  });

  test('without preparation, the first selection reads the scenarios and skills itself (what preparation moves into the load)', async () => {
    const unprepared = await load('sec-lab', { prepare: false });
    expect(unprepared.module.preparation).toBeNull();
    const compile = compileSpy();
    const result = await cycle(unprepared.module, 'sec-lab');
    expect(result.ok && result.outcome).toBe('decided');
    expect(unprepared.entries.slice(0, 3)).toEqual(['__adec_scenarios', '__adec_select', '__adec_skills']);
    expect(compile).toHaveBeenCalled();
  });

  test('a copy of the module record with its evaluator (as the loader makes when it changes the isolation record) keeps what was prepared', async () => {
    const prepared = await load('sec-lab', { prepare: true });
    prepared.entries.length = 0;
    const copy: LoadedModule = { ...prepared.module, isolation: { ...prepared.module.isolation } };
    await cycle(copy, 'sec-lab');
    expect(prepared.entries).not.toContain('__adec_scenarios');
    expect(prepared.entries).not.toContain('__adec_skills');
  });

  test('a module that cannot select still loads: the preparation says why, and nothing else changes', async () => {
    const { module } = await load('sec-lab', { prepare: true, extensions: [] });
    expect(module.preparation).toMatchObject({ prepared: {}, problem: expect.stringMatching(/^MODULE_UNSUPPORTED: the module cannot describe its scenarios/) });
    const result = await cycle(module, 'sec-lab');
    expect(!result.ok && result.error.code).toBe('MODULE_UNSUPPORTED');
  });
});

describe('the warm-ups leave nothing behind', () => {
  /** A value with every timing taken out: what a selection answers and records apart from time. */
  function untimed(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(untimed);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => !/_ms$|^duration|^selection_locked_at$|^content_address$/.test(key)).map(([key, item]) => [key, untimed(item)]));
  }

  test.each(Object.keys(WORLDS) as World[])('%s: the first selection answers and records exactly what it does on a module loaded without preparation', async (world) => {
    for (const mode of ['deterministic_only', 'skill_enhanced'] as const) {
      const [prepared, unprepared] = await Promise.all([load(world, { prepare: true }), load(world, { prepare: false })]);
      const [a, b] = await Promise.all([cycle(prepared.module, world, mode), cycle(unprepared.module, world, mode)]);
      if (!a.ok || !b.ok) throw new Error('the selection failed');
      expect(untimed(a.response)).toEqual(untimed(b.response));
      expect(untimed(a.trace)).toEqual(untimed(b.trace));
    }
  });
});

describe('the warm-up request is a valid request of any scenario', () => {
  const bound = fc.integer({ min: -1_000, max: 1_000 });
  const leaf: fc.Arbitrary<ValueSchema> = fc.oneof(
    fc.tuple(fc.constantFrom('integer' as const, 'number' as const), fc.option(bound, { nil: undefined }), fc.option(fc.nat(500), { nil: undefined })).map(([type, minimum, span]) => ({
      type,
      ...(minimum !== undefined && { minimum }),
      ...(span !== undefined && { maximum: (minimum ?? 0) + span }),
    })),
    fc.tuple(fc.nat(80), fc.nat(80)).map(([minLength, extra]) => ({ type: 'string' as const, minLength, maxLength: minLength + extra })),
    fc.constant<ValueSchema>({ type: 'string' }),
    fc.constant<ValueSchema>({ type: 'string', format: 'date-time' }),
    fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }).map((members) => ({ type: 'string' as const, enum: members })),
    fc.constant<ValueSchema>({ type: ['string', 'integer'], pattern: '^[0-9]+(ms|s|m|h|d)$', minimum: 0 }),
    fc.constant<ValueSchema>({ type: 'boolean' }),
  );
  const schema: fc.Arbitrary<ValueSchema> = fc.letrec<{ value: ValueSchema }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      tie('value').map((items) => ({ type: 'array' as const, items })),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('value'), { maxKeys: 3 }).map((properties) => ({ type: 'object' as const, properties, required: Object.keys(properties), additionalProperties: false })),
      tie('value').map((inner) => ({ anyOf: [inner, { type: 'null' as const }] })),
    ),
  })).value;

  test('a sample value of a schema, optional values null or filled in, is accepted by the converter compiled from that schema', () => {
    fc.assert(
      fc.property(schema, fc.constantFrom('null' as const, 'value' as const), (generated, optional) => {
        const problems: { path: string; message: string }[] = [];
        compileValueConverter(generated)(sampleValue(generated, optional), 'value', problems);
        expect(problems).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });
});
