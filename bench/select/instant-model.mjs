/**
 * A model that answers at once: an llm_stub whose rationale passes the fitness skill's contract
 * for any session (it names the session, within its length, nothing prohibited). With it,
 * skill_enhanced selections measure everything an LLM skill costs but the model's own latency.
 */
import { llmStubExecutor } from '../../packages/engine/dist/index.js';

export const instantModel = () => llmStubExecutor((call) => ({ payload: { rationale: `${call.input.decision_context.action_metadata.session_name} fits your week: steady effort and good recovery.` } }));
