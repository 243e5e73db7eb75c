/**
 * The two isolations decide alike (issue 12, "Also"): the same bundle loaded in-process and in a
 * supervised sandbox process answers 10,000 random requests identically — status, work_frame and
 * the whole decision_metadata (winner, matched rules, traces, errors), selections included —
 * over both examples and a generated world. Requests come from each action's signed context
 * schema, mostly valid, some broken (wrong types, missing or undeclared keys), so both the
 * deciding path and the refusing path are compared. System values are fixed per request, so
 * two answers to one request must be equal as values. Adjudications go to the sandbox process
 * one at a time and then BATCH_SIZE at once, so they also travel micro-batched: many decisions
 * in one frame and one isolate crossing, answered in the compact encoding.
 *
 * Replay with ADEC_PROPERTY_SEED=<seed>; ADEC_PROPERTY_RUNS=<n> sets the request count per
 * world (default: 10,000 in all).
 */
import { buildWorld, type BuildArtifacts } from '@adec/compiler';
import { SELECTION_EXTENSION, select, type CandidateAction, type SelectionRequest } from '@adec/engine';
import { decide, loadModule, type Isolation, type LoadedModule } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { validWorld } from '../property/valid-world-generator.js';
import { loadWorldFromDir } from '../support/repo.js';
import { anywhere, asTestBundle, buildFixture } from '../support/runtime.js';
import { requestFor } from './schema-requests.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_126 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'];
const COUNTS = { benefits: 4_000, generated: 4_000, fitness: 2_000 };
const runs = (n: number): number => (RUNS === undefined ? n : Number(RUNS));
/** Decisions submitted together in the batched comparison: more than a frame holds (64). */
const BATCH_SIZE = 100;
type Submission = 'one at a time' | 'batched';

interface Pair {
  readonly inProcess: LoadedModule;
  readonly process: LoadedModule;
}

const pairs: Pair[] = [];

async function loadPair(artifacts: BuildArtifacts, extensions: readonly string[] = []): Promise<Pair> {
  const bundle = asTestBundle(artifacts);
  const load = async (isolation: Isolation): Promise<LoadedModule> => {
    const loaded = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation, extensions });
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.module;
  };
  const pair = { inProcess: await load('in-process'), process: await load('process') };
  pairs.push(pair);
  return pair;
}

afterAll(async () => {
  await Promise.all(pairs.flatMap((pair) => [pair.inProcess.evaluator.dispose(), pair.process.evaluator.dispose()]));
});

/** Decides `count` generated requests in both isolations and compares the answers. */
async function compareAdjudications(pair: Pair, artifacts: BuildArtifacts, count: number, submission: Submission): Promise<Map<string, number>> {
  const actions = Object.entries(artifacts.manifest.actions).map(([name, action]) => ({ name, schema: action.context_schema }));
  const statuses = new Map<string, number>();
  const request = fc.integer({ min: 0, max: actions.length - 1 }).chain((i) => requestFor(actions[i]!.schema).map((context) => ({ action: actions[i]!.name, context })));
  const samples = fc.sample(fc.tuple(request, fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 })), { seed: SEED + (submission === 'batched' ? 1 : 0), numRuns: count });
  const calls = samples.map(([req, requestTime], index) => {
    const entry = { requestId: `req-${index}`, requestTime, authenticatedCaller: index % 3 === 0 ? null : `agent-${index % 7}` };
    return { index, req, inProcess: () => decide(pair.inProcess, req, entry), process: () => decide(pair.process, req, entry) };
  });
  const groupSize = submission === 'batched' ? BATCH_SIZE : 1;
  for (let at = 0; at < calls.length; at += groupSize) {
    const group = calls.slice(at, at + groupSize);
    const answers = await Promise.all(group.map((call) => call.process()));
    for (const [i, { index, req, inProcess }] of group.entries()) {
      const a = await inProcess();
      expect(anywhere(answers[i]!), `request ${index}: ${JSON.stringify(req)}`).toEqual(anywhere(a));
      if (a.ok) statuses.set(a.decision.status, (statuses.get(a.decision.status) ?? 0) + 1);
    }
  }
  return statuses;
}

/**
 * The benefits example with a per-predicate limit of 200 ms instead of its 5 ms: this compares
 * the isolations, not the clock, and on a loaded CI machine a 5 ms limit expired in one isolation
 * and not the other (a timeout in the trace of one answer only).
 */
async function benefitsWithRoomyLimit(): Promise<BuildArtifacts> {
  const sources = loadWorldFromDir('examples/benefits');
  const files = sources.files.map((file) => (file.path.endsWith('/world.adec') ? { ...file, text: file.text.replace(/^(\s*)timeout 5ms$/m, '$1timeout 200ms') } : file));
  if (files.every((file, i) => file.text === sources.files[i]!.text)) throw new Error('examples/benefits/world.adec no longer sets `timeout 5ms`');
  const built = await buildWorld({ ...sources, files });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
  return built.artifacts;
}

describe('in-process and process isolation decide alike', () => {
  test.each<Submission>(['one at a time', 'batched'])('the benefits example, %s', async (submission) => {
    const artifacts = await benefitsWithRoomyLimit();
    const statuses = await compareAdjudications(await loadPair(artifacts), artifacts, runs(COUNTS.benefits / 2), submission);
    // The requests reach every status, so the comparison covers every path of the composition root.
    expect([...statuses.keys()].sort()).toEqual(['GREEN', 'GREEN-SKIP', 'RED', 'YELLOW']);
  });

  test.each<Submission>(['one at a time', 'batched'])('a generated world, %s', async (submission) => {
    const source = fc.sample(validWorld(), { seed: SEED, numRuns: 1 })[0]!;
    const built = await buildWorld({ root: 'generated', files: [{ path: 'generated/main.adec', text: source }] });
    if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => `${d.code} ${d.message}`).join('\n'));
    const statuses = await compareAdjudications(await loadPair(built.artifacts), built.artifacts, runs(COUNTS.generated / 2), submission);
    expect(statuses.size).toBeGreaterThan(1);
  });

  test('the fitness example (selections)', async () => {
    const pair = await loadPair(await buildFixture('examples/fitness'), [SELECTION_EXTENSION]);
    const samples = fc.sample(selectionRequest, { seed: SEED, numRuns: runs(COUNTS.fitness) });
    const selected = new Set<string>();
    for (const [index, req] of samples.entries()) {
      const a = await select(pair.inProcess, req, 1_000);
      const b = await select(pair.process, req, 1_000);
      // Equal but for how long each stage took (the host's clock, in the trace only).
      expect(withoutTimings(b), `request ${index}: ${JSON.stringify(req)}`).toEqual(withoutTimings(a));
      selected.add(a.ok ? a.selection.selected_action ?? 'none' : a.error.code);
    }
    expect(selected.size).toBeGreaterThan(2);
  });
});

const session = fc.record({
  type: fc.constant('workout_session'),
  session_name: fc.string({ maxLength: 12 }),
  session_type: fc.constantFrom('hiit', 'running', 'yoga', 'swim'),
  intensity: fc.constantFrom('low', 'moderate', 'high', 'extreme'),
  duration_minutes: fc.oneof(fc.integer({ min: 5, max: 120 }), fc.constant(-1), fc.constant(2.5)),
});
const restDay = fc.record({ type: fc.constant('rest_day'), session_name: fc.string({ maxLength: 12 }) });

const selectionRequest: fc.Arbitrary<SelectionRequest> = fc.record(
  {
    scenario: fc.constantFrom('fitness_daily_session', 'fitness_daily_session', 'fitness_daily_session', 'unknown'),
    signals: fc.record(
      {
        sessions_last_7d: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant('x')),
        rest_days_last_7d: fc.integer({ min: 0, max: 7 }),
        consecutive_high_intensity: fc.integer({ min: 0, max: 5 }),
      },
      { requiredKeys: [] },
    ),
    actions: fc
      .array(fc.oneof(session, session, restDay), { minLength: 0, maxLength: 5 })
      .map((actions): CandidateAction[] => actions.map((a, i) => ({ action_id: `a${i}`, ...a }))),
    conditions: fc.subarray(['offline_mode', 'skill_unavailable']),
  },
  { requiredKeys: ['scenario', 'actions'] },
);

function withoutTimings(result: Awaited<ReturnType<typeof select>>) {
  return result.ok ? { ...result, selection: { ...result.selection, timings: null } } : result;
}
