/**
 * The `DecisionResponse` of docs/spec/selection.md §3.9 (stage 9): what a client of a selection receives. The
 * selected action is the one stage 4 locked; the payload is whatever stage 6–8 made of the
 * skill, with the fallback flagged; `audit` says how to retrieve and replay the decision.
 */
import type { ExecutionMode } from '../selection-request.js';
import type { FallbackReason } from '../skills/fallback.js';

export const API_VERSION = '1.0.0';

export interface DecisionResponse {
  readonly decision: {
    readonly decision_id: string;
    readonly selected_action: string;
    readonly payload: unknown;
    readonly ranked_options: readonly { readonly action_id: string; readonly final_score: number; readonly rank: number }[];
  };
  readonly state: {
    readonly values: Readonly<Record<string, unknown>>;
    readonly defaults_applied: readonly string[];
    /** Signals taken from the user's short-term memory. */
    readonly memory_applied: readonly string[];
    /** `unavailable`: the memory could not be read and cold-start defaults were used (flagged). */
    readonly memory_status: 'read' | 'unavailable' | 'none';
    /** The state values whose derivation failed (their readers failed too: see the trace). */
    readonly failed_state: readonly string[];
    readonly inputs_hash: string;
  };
  readonly execution: {
    readonly execution_mode: ExecutionMode;
    readonly skill_bundle_id: string;
    readonly skill_version: string | null;
    readonly executor_id: string;
    readonly validation_status: 'passed' | 'failed' | 'not_run';
    readonly fallback_used: boolean;
    readonly fallback_reason_code: FallbackReason | 'mode_override' | 'llm_unavailable' | null;
    /** 1: the mapped skill's own output; 2: its deterministic fallback; 3: the minimal safe output. */
    readonly fallback_tier: 1 | 2 | 3;
  };
  readonly audit: {
    readonly decision_id: string;
    readonly replay_token: string;
    readonly scenario_id: string;
    readonly scenario_version: string;
    readonly scenario_hash: string;
    readonly trace_id: string;
  };
  readonly meta: {
    readonly request_id: string | null;
    readonly timestamp: string;
    readonly total_duration_ms: number;
    readonly api_version: string;
  };
}
