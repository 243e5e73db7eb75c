/**
 * @adec/engine — the ADE selection cycle over a loaded module (docs/spec/selection.md): stages 1–4 (ingest,
 * derive state, guardrails, score and rank with tie-breaks) run inside the module's sandbox;
 * stages 5–9 (resolve, execute and validate the skill under its Skill Execution Contract,
 * fall back, assemble the response and its trace) run here, the skill's own functions again in
 * the sandbox. Guarantees to its callers: the same module and request always give the same
 * selection and trace (timings aside); a request or sandbox problem is an error value, never a
 * throw; no skill fault ever fails a decision.
 */
export { SELECTION_EXTENSION } from './selection-extension.js';
export { prepareSelection } from './prepare-selection.js';
export { select, ingest, selectIngested, DEFAULT_SELECTION_TIME_LIMIT_MS, type SelectResult, type IngestedRequest } from './select.js';
export { MODEL_CONDITIONS } from './model-conditions.js';
export { rememberedSignalProblems, type ObservedEffect } from './remembered-signals.js';
export type { SelectionRequest, CandidateAction, ExecutionMode, NormalizedRequest } from './selection-request.js';
export type { SelectionError, SelectionErrorCode, RequestProblem } from './selection-error.js';
export type * from './selection-trace.js';
export { runCycle, type CycleRequest, type CycleOptions, type CycleResult, type MemoryInput } from './cycle/run-cycle.js';
export { replayCycle, type ReplayOptions, type ReplayResult } from './cycle/replay-cycle.js';
export { reasoningStructure, type ReasoningStructure } from './cycle/reasoning-structure.js';
export { signTrace, TRACE_SIGNATURE_FORMAT, verifyTrace, type TraceSigner, type TraceVerification } from './cycle/trace-signatures.js';
export { API_VERSION, type DecisionResponse } from './cycle/decision-response.js';
export { contentAddressOf, decodeReplayToken, encodeReplayToken, TRACE_VERSION, type AddressedTrace, type CycleOutcome, type ReasoningTrace, type ReplayToken } from './cycle/reasoning-trace.js';
export { jsonDifferences, type Difference } from './json-differences.js';
export type { LlmCall, LlmExecutor, LlmExecutorType, LlmReply } from './skills/executors/llm-executor.js';
export { envelopeText, llmStubExecutor, type LlmScript, type ScriptedAnswer } from './skills/executors/llm-stub-executor.js';
export { cloudLlmExecutor, cloudLlmFromEnvironment, type CloudLlmOptions } from './skills/executors/cloud-llm-executor.js';
export { DETERMINISTIC_HARD_LIMIT_MS, LLM_HARD_LIMIT_MS } from '@adec/abi';
export { type ModelOutcome, type SkillExecution } from './skills/execute-skill.js';
export { MINIMAL_SAFE_PAYLOAD, type FallbackReason, type FallbackStage } from './skills/fallback.js';
export { NULL_SKILL, type ResolutionReason, type SkillResolution } from './skills/resolve-skill.js';
export type { ModuleSkillInput, SkillInput } from './skills/skill-input.js';
export { UNIVERSAL_PROHIBITIONS } from './skills/universal-prohibitions.js';
export type { ValidationCheck, ValidationFailure, ValidationResult } from './skills/validate-output.js';
