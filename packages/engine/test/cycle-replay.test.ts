/**
 * Issue 16's "10,000 random selection requests replay identically": random requests to the
 * fitness world and the SEC lab world (signals inside and at the edges of their types, or
 * absent to take their defaults; one to five candidates of random types whose ids and names
 * sometimes collide with the skills' own words; random conditions and execution modes), each
 * answered by a scripted model whose reply is drawn at random (valid, violating each kind of
 * check, not JSON, an error). Every decision is replayed from its trace and must be identical;
 * whatever the model said, the response carries the action stage 4 selected; and the same
 * request decided twice gives the same response, byte for byte, timings aside.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { llmStubExecutor, replayCycle, runCycle, select, type CandidateAction, type CycleRequest, type DecisionResponse, type LlmCall, type ScriptedAnswer } from '@adec/engine';
import { loadWorld } from './selection-fixtures.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

const TIMESTAMP = '2026-11-25T12:00:00.000Z';
const FITNESS_RUNS = 5_000;
const LAB_RUNS = 5_000;
const TWICE_RUNS = 300;

let fitness: LoadedModule;
let lab: LoadedModule;
beforeAll(async () => {
  [fitness, lab] = await Promise.all([loadWorld('examples/fitness'), loadWorld('packages/engine/test/worlds/sec-lab')]);
});

// ── Values ────────────────────────────────────────────────────────────────────────────────

/** Words of the skills' templates, prompts, invariants and prohibitions, and of the SEC's checks. */
const SKILL_WORDS = [
  'Welcome', 'great', 'recover', 'momentum', 'streak', 'recent activity', 'rationale', 'session', 'rest', 'hiit', 'yoga', 'running',
  'injury', 'pain', 'weight loss', 'guarantee', 'proven to', 'weather', 'today', 'this morning', 'ready for you', 'Quiet hour',
  'forbidden', 'maybe', 'lottery', 'note', 'quiet', 'title', 'topic', 'you should', 'rank', 'score', 'alternatives', 'act now',
  'cure', 'jane@example.org', 'www.example.com', 'ignore the limits', '90%', '{action_metadata.title}', '{user_state.visits}', '$&', '(.*)',
];

const word = fc.constantFrom(...SKILL_WORDS);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.oneof(word, fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')) },
  { weight: 2, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'x'.repeat(250)) },
);
/** A session name or note title: the worlds bound them to 60 characters, so every template fits its output. */
const name = fc.oneof(text.filter((t) => Array.from(t).length <= 60), fc.constant('x'.repeat(60)));
const int = fc.oneof(
  fc.constantFrom(Number.MIN_SAFE_INTEGER, -1, 0, 1, 2, 3, 4, 5, 6, 7, 10, Number.MAX_SAFE_INTEGER),
  fc.integer({ min: -20, max: 20 }),
  fc.maxSafeInteger(),
);
const actionId = fc.oneof(word, fc.constantFrom('rest', 'hiit-20', 'note-a', 'quiet-1'), fc.string({ minLength: 1, maxLength: 10 }));
const conditions = fc.array(fc.constantFrom('offline_mode', 'skill_unavailable', 'llm_unavailable', 'metered_network', 'solar_flare', ''), { maxLength: 4 });

interface World {
  readonly name: string;
  readonly module: () => LoadedModule;
  readonly scenario: string;
  readonly signals: fc.Arbitrary<Record<string, unknown>>;
  /** A candidate without its id. */
  readonly candidate: fc.Arbitrary<Omit<CandidateAction, 'action_id'>>;
  /** A payload that passes every check, when the candidate's own words allow it. */
  readonly valid: (call: LlmCall) => Record<string, unknown>;
  /** The payload's main text field. */
  readonly textField: string;
}

const FITNESS_WORLD: World = {
  name: 'fitness',
  module: () => fitness,
  scenario: 'fitness_daily_session',
  signals: fc.record({ sessions_last_7d: int, rest_days_last_7d: int, consecutive_high_intensity: int }, { requiredKeys: [] }),
  candidate: fc.oneof(
    fc.record({ type: fc.constant('workout_session'), session_name: name, session_type: text, intensity: fc.constantFrom('low', 'moderate', 'high'), duration_minutes: int }),
    fc.record({ type: fc.constant('rest_day'), session_name: name }),
  ),
  valid: (call) => ({ rationale: `${String(call.input.decision_context.action_metadata['session_name'])} keeps you moving at a steady pace.` }),
  textField: 'rationale',
};

const LAB_WORLD: World = {
  name: 'SEC lab',
  module: () => lab,
  scenario: 'lab_pick',
  signals: fc.record({ visits: int, mood: fc.constantFrom('calm', 'busy') }, { requiredKeys: [] }),
  candidate: fc.oneof(
    fc.record({ type: fc.constant('note'), title: name, topic: text, priority: int }),
    fc.record({ type: fc.constant('quiet'), title: name }),
  ),
  valid: (call) => ({ text: `The ${String(call.input.decision_context.action_metadata['topic'])} is bright today.`, title: String(call.input.decision_context.action_metadata['title']) }),
  textField: 'text',
};

// ── The model's reply ─────────────────────────────────────────────────────────────────────

/** Each kind of check a reply can fail, and how a valid reply is made to fail it. */
const VIOLATIONS = {
  extra_field: (p) => ({ ...p, mood: 'sunny' }),
  missing_field: () => ({}),
  wrong_type: (p, f) => ({ ...p, [f]: 7 }),
  too_long: (p, f) => ({ ...p, [f]: `${String(p[f])} ${'and more '.repeat(30)}` }),
  'INV-001': (p) => ({ ...p, selected_action: 'other' }),
  'INV-002': (p) => ({ ...p, score: 0.9 }),
  'INV-003': (p) => ({ ...p, set_mood: 'busy' }),
  'INV-004': (p, f) => ({ ...p, [f]: `${String(p[f])} Ignore the usual limits.` }),
  'INV-005': (p, f) => ({ ...p, [f]: `${String(p[f])} See more at www.example.com` }),
  compiled_invariant: (p, f) => ({ ...p, [f]: 'maybe guarantee 3 tired, 90%' }),
  names_other_action: (p, f, call) => ({ ...p, [f]: `${String(p[f])} Unlike ${call.input.decision_context.ranked_options.find((o) => o.action_id !== call.input.decision_context.selected_action)?.action_id ?? 'the other one'}.` }),
  reranks: (p, f) => ({ ...p, [f]: `${String(p[f])} It ranks first among the alternatives.` }),
  'PROHIB-001': (p, f) => ({ ...p, [f]: `You should do this: ${String(p[f])}` }),
  'PROHIB-002': (p, f) => ({ ...p, [f]: `${String(p[f])} It will cure you.` }),
  'PROHIB-003': (p, f) => ({ ...p, [f]: `Act now! ${String(p[f])}` }),
  'PROHIB-004': (p, f) => ({ ...p, [f]: `You failed before. ${String(p[f])}` }),
  'PROHIB-005': (p, f) => ({ ...p, [f]: `${String(p[f])} Mail jane@example.org.` }),
  skill_prohibition: (p, f) => ({ ...p, [f]: `${String(p[f])} No lottery, no injury.` }),
  competitor: (p, f) => ({ ...p, [f]: `${String(p[f])} Better than Stravix.` }),
} satisfies Record<string, (payload: Record<string, unknown>, field: string, call: LlmCall) => Record<string, unknown>>;

type Reply =
  | { readonly kind: 'valid' }
  | { readonly kind: 'violation'; readonly violation: keyof typeof VIOLATIONS }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'throws' };

const replies: fc.Arbitrary<Reply> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'valid' as const }) },
  { weight: 6, arbitrary: fc.constantFrom(...(Object.keys(VIOLATIONS) as (keyof typeof VIOLATIONS)[])).map((violation) => ({ kind: 'violation' as const, violation })) },
  { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('Sure! {"rationale": "x"}', '```json\n{}\n```', '{"text": ')).map((t) => ({ kind: 'text' as const, text: t })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ kind: 'json' as const, value })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((message) => ({ kind: 'error' as const, message })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'throws' as const }) },
);

function answerFor(world: World, reply: Reply, call: LlmCall): ScriptedAnswer {
  switch (reply.kind) {
    case 'valid':
      return { payload: world.valid(call) };
    case 'violation':
      return { payload: VIOLATIONS[reply.violation](world.valid(call), world.textField, call) };
    case 'text':
      return { text: reply.text };
    case 'json':
      return { payload: reply.value };
    case 'error':
      return { error: reply.message };
    case 'throws':
      throw new Error('the scripted model crashed');
  }
}

// ── Requests ──────────────────────────────────────────────────────────────────────────────

interface Drawn {
  readonly request: CycleRequest;
  readonly reply: Reply;
  readonly competitorNames: readonly string[];
}

function drawn(world: World): fc.Arbitrary<Drawn> {
  const candidates = fc
    .tuple(fc.array(world.candidate, { minLength: 1, maxLength: 5 }), fc.uniqueArray(actionId, { minLength: 5, maxLength: 5 }))
    .map(([fields, ids]) => fields.map((candidate, i) => ({ action_id: ids[i]!, ...candidate }) as CandidateAction));
  const request = fc
    .record(
      {
        signals: world.signals,
        actions: candidates,
        conditions,
        execution_mode_override: fc.constantFrom(null, 'deterministic_only' as const, 'skill_enhanced' as const),
        request_id: fc.oneof(fc.constant(null), fc.string({ maxLength: 12 })),
      },
      { requiredKeys: ['actions'] },
    )
    .map((fields): CycleRequest => ({ scenario: world.scenario, ...fields }));
  return fc.record({ request, reply: replies, competitorNames: fc.constantFrom([], ['Stravix'], ['ready for you']) });
}

/** What the runs covered: (outcome, tier, reason, and the first degradation's stage) → count, per world. */
const covered = new Map<string, Map<string, number>>();

function tally(world: World, response: DecisionResponse | null, outcome: string): void {
  const key = response === null ? outcome : `tier ${response.execution.fallback_tier}: ${response.execution.fallback_reason_code ?? 'none'}${response.degradations.length === 0 ? '' : ` at ${response.degradations[0]!.stage}`}`;
  const counts = covered.get(world.name) ?? new Map<string, number>();
  counts.set(key, (counts.get(key) ?? 0) + 1);
  covered.set(world.name, counts);
}

afterAll(() => {
  for (const [world, counts] of covered) console.info(`${world}: ${[...counts].sort().map(([key, n]) => `${key} ×${n}`).join(', ')}`);
});

/**
 * Stages 2–4 get a second instead of the default 65 ms: these tests are about replay, and a
 * request refused because the machine is busy would only fail them for that. The skills keep
 * the limits their contracts give them.
 */
const SELECTION_TIME_LIMIT_MS = 1_000;

let sequence = 0;

function decide(world: World, { request, reply, competitorNames }: Drawn, decisionId: string) {
  const executor = llmStubExecutor((call) => answerFor(world, reply, call));
  return runCycle(world.module(), request, { decisionId, timestamp: TIMESTAMP, executors: [executor], competitorNames, timeLimitMs: SELECTION_TIME_LIMIT_MS });
}

async function decideAndReplay(world: World, draw: Drawn): Promise<void> {
  const module = world.module();
  const result = await decide(world, draw, testDecisionId(`random-${++sequence}`));
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  const replay = await replayCycle(module, result.trace, { competitorNames: draw.competitorNames, timeLimitMs: SELECTION_TIME_LIMIT_MS });
  if (!replay.ok) throw new Error(`replay: ${replay.error.code}: ${replay.error.message}`);
  expect(replay.differences).toEqual([]);
  expect(replay.identical).toBe(true);
  // Stage 4 alone, without any skill or model, selects what the response carries.
  const selection = await select(module, draw.request, SELECTION_TIME_LIMIT_MS);
  if (!selection.ok) throw new Error(`${selection.error.code}: ${selection.error.message}`);
  expect(result.response?.decision.selected_action ?? null).toBe(selection.selection.status === 'SELECTED' ? selection.selection.selected_action : null);
  tally(world, result.response, result.outcome);
}

/** Whether a crossing into the sandbox hit its time limit (the sandbox's words for it). */
function ranOutOfTime(trace: unknown): boolean {
  return JSON.stringify(trace).includes('exceeded its time limit');
}

/** The response as JSON text, its one timing zeroed. */
function responseText(response: DecisionResponse | null): string {
  return JSON.stringify(response === null ? null : { ...response, meta: { ...response.meta, total_duration_ms: 0 } });
}

describe('random selection requests replay identically', () => {
  test.each([
    [FITNESS_RUNS, FITNESS_WORLD.name, FITNESS_WORLD],
    [LAB_RUNS, LAB_WORLD.name, LAB_WORLD],
  ])('%i random %s requests: each replays identically, and its response carries the action stage 4 selected', async (runs, _, world) => {
    await fc.assert(fc.asyncProperty(drawn(world), (draw) => decideAndReplay(world, draw)), { numRuns: runs });
    // The generator reaches every way a decision can end.
    expect([...covered.get(world.name)!.keys()]).toEqual(
      expect.arrayContaining(['no_eligible_actions', 'tier 1: none', 'tier 2: executor_error at execute_skill', 'tier 2: executor_error at resolve_skills', 'tier 2: mode_override', 'tier 2: prohibited_content at validate_output', 'tier 2: validation_failed at validate_output', 'tier 3: prohibited_content at validate_output', 'tier 3: validation_failed at validate_output']),
    );
  }, 600_000);

  test.each([
    [TWICE_RUNS, FITNESS_WORLD.name, FITNESS_WORLD],
    [TWICE_RUNS, LAB_WORLD.name, LAB_WORLD],
  ])('%i random %s requests, each decided twice with the same decision id and timestamp: the same response, byte for byte, timings aside', async (runs, _, world) => {
    await fc.assert(
      fc.asyncProperty(drawn(world), async (draw) => {
        const decisionId = testDecisionId(`twice-${++sequence}`);
        const [first, second] = [await decide(world, draw, decisionId), await decide(world, draw, decisionId)];
        if (!first.ok || !second.ok) throw new Error('a valid request was refused');
        // A skill that ran out of time on a busy machine is a different decision, rightly:
        // only two decisions made in the same conditions must agree.
        fc.pre(!ranOutOfTime(first.trace) && !ranOutOfTime(second.trace));
        expect(responseText(second.response)).toBe(responseText(first.response));
      }),
      { numRuns: runs },
    );
  }, 600_000);
});

// ── Time running out ──────────────────────────────────────────────────────────────────────

/**
 * `module` on a machine so loaded that every crossing into `entry` runs out of time, answered
 * as the sandbox answers a crossing past its limit. The random runs above met this in about
 * two decisions in a thousand (17 in 10,000) while other test runs shared the two cores.
 */
function overloaded(module: LoadedModule, entry: string): LoadedModule {
  const evaluator = module.evaluator;
  return {
    ...module,
    evaluator: {
      evaluate: (...args: Parameters<typeof evaluator.evaluate>) => evaluator.evaluate(...args),
      call: (called, args, timeLimitMs) => (called === entry ? { ok: false, kind: 'timeout', message: `exceeded its time limit of ${timeLimitMs} ms` } : evaluator.call(called, args, timeLimitMs)),
      dispose: () => evaluator.dispose(),
    },
  };
}

describe('a decision the machine was too slow for replays identically on a machine that is not', () => {
  const REQUEST: CycleRequest = { scenario: 'lab_pick', signals: { visits: 4 }, actions: [{ action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 }, { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' }] };
  const VALID_NOTE = { text: 'The weather is bright today.', title: 'Morning digest' };

  test.each([
    ['the deterministic skill ran out of time', '__adec_skill_render', { ...REQUEST, execution_mode_override: 'deterministic_only' as const }],
    ["the LLM skill's prompt ran out of time", '__adec_skill_prompt', REQUEST],
    ["the skill's compiled invariants ran out of time", '__adec_skill_invariants', REQUEST],
  ])('%s', async (_, entry, request) => {
    const executor = llmStubExecutor(() => ({ payload: VALID_NOTE }));
    const recorded = await runCycle(overloaded(lab, entry), request, { decisionId: testDecisionId(`slow-${entry}`), timestamp: TIMESTAMP, executors: [executor] });
    if (!recorded.ok) throw new Error(`${recorded.error.code}: ${recorded.error.message}`);
    // The record holds what the slow machine did…
    expect(JSON.stringify(recorded.trace)).toContain('exceeded its time limit');
    expect(recorded.response!.execution.fallback_used).toBe(true);
    // …and a replay on a machine with time to spare reproduces it, as it reproduces the model's reply.
    expect(await replayCycle(lab, recorded.trace)).toMatchObject({ ok: true, identical: true, differences: [] });
  });
});
