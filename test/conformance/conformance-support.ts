/**
 * What the conformance suite shares: the worlds it decides on, the three ways it reaches adec
 * (the engine's `runCycle`, the CLI's `adec …` in process, the service over loopback HTTP), and
 * the check that a value has exactly its contract's field names, nesting and value sets (ajv
 * strict, through `contractProblems` of @adec/contracts).
 */
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { expect } from 'vitest';
import { contractProblems } from '@adec/contracts';
import { llmStubExecutor, runCycle, type AddressedTrace, type CandidateAction, type CycleOptions, type CycleRequest, type CycleResult, type DecisionResponse, type LlmCall, type LlmExecutor } from '@adec/engine';
import type { LoadedModule } from '@adec/runtime';
import { generateKey, parseKey } from '@adec/runtime';
import { runCli, type CliRun } from '../../packages/cli/test/run-cli.js';
import { loadForSelection, LAB_WORLD } from '../../packages/engine/test/selection-fixtures.js';
import { startService, type ServiceFixture } from '../../packages/server/test/service-fixture.js';
import { testDecisionId } from '../support/decision-ids.js';
import { asTestBundle, buildFixture, injectIntoBundle, publish, testKeys, type TestBundle } from '../support/runtime.js';

export { testDecisionId };

/** Fails with every problem when `value` is not exactly its contract. */
export function expectConforms(schema: TSchema, value: unknown): void {
  expect(contractProblems(schema, value)).toEqual([]);
}

// ── Worlds and candidates ─────────────────────────────────────────────────────────────────

export const FITNESS_WORLD = 'examples/fitness';
export const COACH_WORLD = 'examples/learning-coach';
export const SEC_LAB_WORLD = 'packages/engine/test/worlds/sec-lab';
export { LAB_WORLD };

export const FITNESS = 'fitness_daily_session';
export const HIIT: CandidateAction = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
export const RUN: CandidateAction = { action_id: 'run-40', type: 'workout_session', session_name: 'Tempo Run', session_type: 'running', intensity: 'moderate', duration_minutes: 40 };
export const YOGA: CandidateAction = { action_id: 'yoga-30', type: 'workout_session', session_name: 'Morning Yoga', session_type: 'yoga', intensity: 'low', duration_minutes: 30 };
export const REST: CandidateAction = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };
/** A fitness request whose intensity cap rejects HIIT, so the LLM-explained run is selected. */
export const CAPPED: CycleRequest = { scenario: FITNESS, signals: { sessions_last_7d: 0, rest_days_last_7d: 2, consecutive_high_intensity: 2 }, actions: [HIIT, RUN] };
export const RUN_RATIONALE = 'Tempo Run keeps your legs moving at an easy, steady pace.';

export const LAB_PICK = 'lab_pick';
export const NOTE: CandidateAction = { action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 };
export const QUIET: CandidateAction = { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' };
export const LAB_REQUEST: CycleRequest = { scenario: LAB_PICK, signals: { visits: 4 }, actions: [NOTE, QUIET] };
/** A note the SEC lab's LLM skill may return: every check passes. */
export const VALID_NOTE = { text: 'The weather is bright today.', title: 'Morning digest' };
/** What the lab's deterministic fallback writes for the note. */
export const FALLBACK_NOTE = { text: 'Morning digest is ready for you today.' };

/**
 * The selection lab with two faults a world cannot be written with: the `pause` action type is
 * mapped to a skill the module lacks, and the `ease` objective throws for a candidate named
 * `boom` (so the ranking fails), and only for it.
 */
export const FAULTY_LAB_JS = [
  'm._SCENARIOS.lab.action_types.find((type) => type.name === "pause").skill = "ghost_skill";',
  'const ease = m._SCENARIOS.lab.objectives[1].score;',
  'm._SCENARIOS.lab.objectives[1].score = (env, action) => { if (action.action_id === "boom") throw new RangeError("off the scale"); return ease(env, action); };',
].join('\n');

export const built = (world: string): Promise<TestBundle> => buildFixture(world).then(asTestBundle);
export const faultyLab = async (): Promise<TestBundle> => injectIntoBundle(await built(LAB_WORLD), FAULTY_LAB_JS);

/** A world built and loaded into a real isolate with the selection extension. */
export async function loaded(world: string | TestBundle): Promise<LoadedModule> {
  return loadForSelection(typeof world === 'string' ? await built(world) : world);
}

// ── The engine ────────────────────────────────────────────────────────────────────────────

export const TIMESTAMP = '2026-11-25T12:00:00.000Z';
let sequence = 0;

/** One cycle with a fixed timestamp and a fresh decision id. */
export function cycle(module: LoadedModule, request: CycleRequest, options: Partial<CycleOptions> = {}): Promise<CycleResult> {
  return runCycle(module, request, { decisionId: testDecisionId(`conformance-${++sequence}`), timestamp: TIMESTAMP, ...options });
}

export interface Decided {
  readonly response: DecisionResponse;
  readonly trace: AddressedTrace;
}

/** One cycle that must end in a decision. */
export async function decided(module: LoadedModule, request: CycleRequest, options: Partial<CycleOptions> = {}): Promise<Decided> {
  const result = await cycle(module, request, options);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  if (result.response === null) throw new Error(`no response: ${result.outcome}`);
  return { response: result.response, trace: result.trace };
}

/** A scripted model answering `payload` in the output envelope, recording every call. */
export function scriptedModel(payload: (call: LlmCall) => unknown): { readonly executor: LlmExecutor; readonly calls: LlmCall[] } {
  const calls: LlmCall[] = [];
  return { executor: llmStubExecutor((call) => (calls.push(call), { payload: payload(call) })), calls };
}

/** A lab decision with the LLM skill answering `payload`. */
export function labWith(module: LoadedModule, payload: unknown, options: Partial<CycleOptions> = {}): Promise<Decided> {
  return decided(module, LAB_REQUEST, { executors: [scriptedModel(() => payload).executor], ...options });
}

/** Every stage artifact of a trace that ran, by name. */
export function ranStages(trace: AddressedTrace): string[] {
  return Object.entries(trace.stages).filter(([, artifact]) => artifact !== null).map(([name]) => name);
}

// ── The CLI ───────────────────────────────────────────────────────────────────────────────

export interface CliWorkspace {
  readonly dir: string;
  /** `adec select <bundle>` in process on the published bundle of `world`, with `request`. */
  select(world: string, request: unknown, ...flags: string[]): Promise<CliRun>;
  run(...argv: string[]): Promise<CliRun>;
}

/** A workspace with the given worlds built, signed and approved into a store, and a trust file. */
export async function cliWorkspace(worlds: readonly string[]): Promise<CliWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), 'adec-conformance-'));
  const keys = testKeys();
  const bundles = new Map<string, string>();
  for (const world of worlds) bundles.set(world, publish(await built(world), join(dir, 'store'), keys));
  writeFileSync(join(dir, 'ci.pub.pem'), createPublicKey(keys.signer).export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(dir, 'ops.pub.pem'), createPublicKey(keys.approver).export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(dir, 'trust.json'), JSON.stringify({ signing_keys: ['ci.pub.pem'], approval_keys: ['ops.pub.pem'] }));
  let files = 0;
  return {
    dir,
    run: (...argv) => runCli(argv, dir),
    select(world, request, ...flags) {
      const file = `request-${++files}.json`;
      writeFileSync(join(dir, file), JSON.stringify(request));
      return runCli(['select', bundles.get(world)!, '--request', file, '--isolation', 'in-process', '--trust', 'trust.json', ...flags], dir);
    },
  };
}

// ── The service ───────────────────────────────────────────────────────────────────────────

export const FITNESS_ROUTE = { domain: 'fitness.coaching', world_model_version: '1.0.0', scenario: FITNESS };
export const SEC_LAB_ROUTE = { domain: 'sec.lab', world_model_version: '1.0.0', scenario: LAB_PICK };
export const LAB_ROUTE = { domain: 'lab.selection', world_model_version: '1.0.0', scenario: 'lab' };

export interface SelectionService {
  readonly service: ServiceFixture;
  /** The public key text (JWK) that verifies the service's trace signatures. */
  readonly tracePublicKey: string;
  readonly traceKeyId: string;
  /** What the scripted model answers next (the payload of its output envelope). */
  answer(payload: (call: LlmCall) => unknown): void;
  post(path: string, body: unknown): Promise<{ status: number; location: string | null; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * The decision service on loopback serving the fitness world, the SEC lab and the faulty
 * selection lab, with a scripted model and a trace signing key, a SQLite audit store.
 */
export async function selectionService(): Promise<SelectionService> {
  const traceKey = generateKey('jwk');
  const signing = parseKey(traceKey.privateText, 'trace.key.jwk');
  if (!signing.ok) throw new Error(signing.message);
  let reply: (call: LlmCall) => unknown = () => ({ rationale: RUN_RATIONALE });
  const bundles = [await built(FITNESS_WORLD), await built(SEC_LAB_WORLD), await faultyLab()];
  const service = await startService(
    { executors: [llmStubExecutor((call) => ({ payload: reply(call) }))], traceSigner: { key: signing.key, keyId: signing.keyId } },
    (modules, keys) => bundles.forEach((bundle) => publish(bundle, modules, keys)),
  );
  const read = async (response: Response) => {
    const text = await response.text();
    return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  };
  return {
    service,
    tracePublicKey: traceKey.publicText,
    traceKeyId: traceKey.keyId,
    answer: (payload) => (reply = payload),
    post: async (path, body) => {
      const response = await service.post(path, body);
      return { status: response.status, location: response.headers.get('location'), body: await read(response) };
    },
    get: async (path) => {
      const response = await service.get(path);
      return { status: response.status, body: await read(response) };
    },
    close: () => service.close(),
  };
}
