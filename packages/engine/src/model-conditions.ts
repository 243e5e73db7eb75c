/**
 * Platform conditions that take away the model an LLM skill needs (docs/spec/selection.md §3.5: execution
 * capabilities; docs/spec/skill-contract.md §6.3: "llm_unavailable"). A request reporting one of them makes stage 5
 * resolve an LLM skill to its deterministic fallback, and stage 4 charges the execution-risk
 * factors of these conditions only to the candidates whose skill would have needed the model.
 */
export const MODEL_CONDITIONS: readonly string[] = ['offline_mode', 'llm_unavailable', 'skill_unavailable'];
