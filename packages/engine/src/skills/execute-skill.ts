/**
 * Stage 6 (docs/spec/selection.md §3.6; docs/spec/skill-contract.md §5): run the resolved skill within its time limit. A deterministic
 * skill renders its first applicable template in the isolate; an LLM skill renders its prompt
 * in the isolate and asks its executor, which is given up at the limit whatever it does. A
 * timeout or an executor error is an outcome here, never a failure of the decision: stage 8
 * falls back. The model's reply is recorded exactly as received, so a replay can feed the
 * same reply through the same validation without asking the model again.
 *
 * Templates, prompts and the module's invariants read the envelope through the language's roots
 * (`moduleSkillInput`); an executor is given the envelope itself and answers with the output
 * envelope, whose payload is taken out here (skill-reply.ts) and whose shape stage 7 checks.
 */
import { DETERMINISTIC_HARD_LIMIT_MS, enforcedSkillTimeLimits } from '@adec/abi';
import type { ModelOutcome as ModelOutcomeSchema, SkillOutput, Wire } from '@adec/contracts';
import { jsonDigest } from '../json-digest.js';
import type { LlmExecutor } from './executors/llm-executor.js';
import type { SkillContract } from './skill-catalog.js';
import type { SkillCrossings } from './skill-crossings.js';
import type { ExecutionMode } from '../selection-request.js';
import { moduleSkillInput, type SkillInput } from './skill-input.js';
import { readSkillReply } from './skill-reply.js';

/** What the model did, as recorded for replay. */
export type ModelOutcome = Wire<typeof ModelOutcomeSchema>;

export type ExecutionStatus = SkillExecution['status'];

/** Stage 6's output (@adec/contracts `SkillOutput`). */
export type SkillExecution = Wire<typeof SkillOutput>;

export interface ExecutionRequest {
  /** The cycle's crossings into the isolate (recorded and replayed: skill-crossings.ts). */
  readonly crossings: SkillCrossings;
  readonly skill: SkillContract;
  readonly input: SkillInput;
  readonly mode: ExecutionMode;
  /** The LLM executor; null runs the skill's templates. */
  readonly executor: LlmExecutor | null;
  /** The output's `generated_at`: the decision timestamp, so a replay generates the same output. */
  readonly generatedAt: string;
  /** Replay: the model outcome recorded by the original decision, used instead of a call. */
  readonly recordedOutcome?: ModelOutcome;
}

/** docs/spec/skill-contract.md §5: the limits come from @adec/abi, which the contract document states too. */
export function timeLimitOf(skill: SkillContract): number {
  return enforcedSkillTimeLimits(skill).timeoutMs;
}

export async function executeSkill(request: ExecutionRequest): Promise<SkillExecution> {
  const started = performance.now();
  const limit = timeLimitOf(request.skill);
  const base = { skill_bundle_id: request.skill.id, skill_version: request.skill.version, execution_mode: request.mode, time_limit_ms: limit };
  const finished = (rest: Omit<SkillExecution, keyof typeof base | 'execution_duration_ms' | 'payload_hash' | 'metadata'>): SkillExecution => ({
    ...base,
    ...rest,
    metadata: rest.payload === null ? null : outputMetadata(request, rest.model_outcome),
    payload_hash: rest.payload === null ? null : jsonDigest(rest.payload),
    execution_duration_ms: performance.now() - started,
  });
  if (request.executor === null) {
    const rendered = await crossInto(request, '__adec_skill_render', limit);
    const common = { executor_id: 'deterministic', prompt: null, model_outcome: null };
    if (!rendered.ok) return finished({ ...common, status: rendered.status, message: rendered.message, template: rendered.template, payload: null });
    return finished({ ...common, status: 'completed', message: null, template: rendered.template, payload: rendered.payload });
  }
  const prompt = await crossInto(request, '__adec_skill_prompt', DETERMINISTIC_HARD_LIMIT_MS);
  const common = { executor_id: request.executor.id, template: null };
  if (!prompt.ok) return finished({ ...common, status: 'executor_error', message: `the prompt could not be rendered: ${prompt.message}`, prompt: null, model_outcome: null, payload: null });
  const outcome = request.recordedOutcome ?? (await askModel(request, request.executor, prompt.prompt, limit));
  switch (outcome.kind) {
    case 'timeout':
      return finished({ ...common, status: 'timeout', message: `the model did not answer within ${limit} ms`, prompt: prompt.prompt, model_outcome: outcome, payload: null });
    case 'error':
      return finished({ ...common, status: 'executor_error', message: outcome.message, prompt: prompt.prompt, model_outcome: outcome, payload: null });
    case 'reply':
      return finished({ ...common, status: 'completed', message: null, prompt: prompt.prompt, model_outcome: outcome, payload: readSkillReply(outcome.text, request.skill).payload });
  }
}

/** The output envelope's metadata (docs/spec/skill-contract.md §2), the same in a replay. */
function outputMetadata(request: ExecutionRequest, outcome: ModelOutcome | null): SkillExecution['metadata'] {
  const tokens = outcome?.kind === 'reply' ? outcome.token_count : null;
  return { skill_id: request.skill.id, skill_version: request.skill.version, generated_at: request.generatedAt, ...(tokens !== null && { token_count: tokens }) };
}

/** The model's call, abandoned at `limit` even if the executor ignores its abort signal. */
async function askModel(request: ExecutionRequest, executor: LlmExecutor, prompt: string, limit: number): Promise<ModelOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ModelOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: 'timeout' });
    }, limit);
  });
  const call = { skillId: request.skill.id, skillVersion: request.skill.version, prompt, input: request.input, outputSchema: request.skill.outputSchema, timeoutMs: limit };
  const replied = executor.complete(call, controller.signal).then(
    (reply): ModelOutcome => (reply.ok ? { kind: 'reply', text: reply.text, token_count: reply.tokenCount } : { kind: 'error', message: reply.message }),
    (error: unknown): ModelOutcome => ({ kind: 'error', message: `the executor threw: ${error instanceof Error ? error.message : String(error)}` }),
  );
  try {
    return await Promise.race([replied, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

type Rendered =
  | { readonly ok: true; readonly template: string | null; readonly payload: unknown; readonly prompt: string }
  | { readonly ok: false; readonly status: ExecutionStatus; readonly template: string | null; readonly message: string };

async function crossInto(request: ExecutionRequest, entry: '__adec_skill_render' | '__adec_skill_prompt', limit: number): Promise<Rendered> {
  const crossing = await request.crossings.call(entry, request.skill.id, JSON.stringify(moduleSkillInput(request.input)), limit);
  if (!crossing.ok) return { ok: false, status: crossing.kind === 'timeout' ? 'timeout' : 'executor_error', template: null, message: `${crossing.kind}: ${crossing.message}` };
  const answer = JSON.parse(crossing.value) as { ok: boolean; template?: string | null; payload?: unknown; prompt?: string; message?: string };
  if (!answer.ok) return { ok: false, status: 'executor_error', template: answer.template ?? null, message: answer.message ?? 'failed' };
  return { ok: true, template: answer.template ?? null, payload: answer.payload ?? null, prompt: answer.prompt ?? '' };
}
