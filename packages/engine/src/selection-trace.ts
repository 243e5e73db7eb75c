import type { ExecutionMode } from './selection-request.js';

/**
 * A selection (docs/spec/selection.md §3.2–§3.4) in the snake_case wire form it is serialized and audited
 * in: the outcome, and the artifact of each stage, so a reader can see why every candidate was
 * kept, rejected, scored and ranked as it was. Produced inside the sandbox by the selection
 * extension (selection-extension.ts); the host adds only the module reference.
 */

export type SelectionStatus =
  /** `selected_action` is the first of `ranking`. */
  | 'SELECTED'
  /** The guardrails left no candidate (docs/spec/selection.md §6: HTTP 422, trace stored). */
  | 'NO_ELIGIBLE_ACTIONS'
  /** An objective or tie-break key failed, so no ranking can be trusted (docs/spec/selection.md §6: HTTP 500, trace stored). */
  | 'SCORING_FAILED';

export interface Selection {
  readonly scenario: string;
  readonly scenario_version: string;
  readonly status: SelectionStatus;
  readonly selected_action: string | null;
  /** The request's `execution_mode_override`, else the scenario's default: stage 4 weighs model risk only when skill_enhanced. */
  readonly execution_mode: ExecutionMode;
  readonly stages: SelectionStages;
  /** Every module function that threw or returned an unusable value, in evaluation order. */
  readonly errors: readonly FunctionError[];
  /**
   * How long each stage took, by the host's clock (the only value of a selection that differs
   * between two runs of the same request: compare selections without it).
   */
  readonly timings: { readonly derive_state_ms: number; readonly evaluate_guardrails_ms: number; readonly score_and_rank_ms: number };
  readonly module: ModuleReference;
}

export interface SelectionStages {
  readonly derive_state: DeriveStateStage;
  readonly evaluate_guardrails: GuardrailStage;
  readonly score_and_rank: ScoreAndRankStage;
}

export interface DeriveStateStage {
  /** Every signal of the scenario as the module saw it (timestamps and durations in ms). */
  readonly signals: Readonly<Record<string, unknown>>;
  /** Signals the request did not supply, which took their declared default (or null). */
  readonly defaults_applied: readonly string[];
  /** Derived state values, in derivation order; a failed derivation has no entry. */
  readonly state: Readonly<Record<string, unknown>>;
  /** State values whose derivation threw: every function reading one throws in turn. */
  readonly failed_state: readonly string[];
}

export interface GuardrailStage {
  /** Every guardrail of the scenario, in declaration order. */
  readonly guardrails: readonly GuardrailTrace[];
  /** Candidates that passed every guardrail, in request order. */
  readonly eligible: readonly string[];
  readonly rejected: readonly RejectedAction[];
}

export type GuardrailEffect = 'block' | 'force' | 'cap';

export interface GuardrailTrace {
  readonly id: string;
  readonly description: string;
  readonly effect: GuardrailEffect;
  /** Its `when` held (or threw: a guardrail that cannot be evaluated applies). */
  readonly fired: boolean;
  /** The reason code recorded on the actions it rejects: the guardrail's id. */
  readonly reason_code: string;
  /** The candidates this guardrail rejected, in request order. */
  readonly affected_actions: readonly string[];
  /** `force`: the only action type that stays eligible. */
  readonly action_type: string | null;
  /** `cap`: the numeric action field that must not exceed the limit. */
  readonly field: string | null;
}

export interface RejectedAction {
  readonly action_id: string;
  /** Reason codes of every guardrail the action violated, in declaration order. */
  readonly violated_guardrails: readonly string[];
}

export interface ScoreAndRankStage {
  readonly execution_risk: ExecutionRiskTrace;
  /** The score breakdown of every eligible action, in request order. */
  readonly scores: readonly ActionScore[];
  /** Best first; empty unless the status is SELECTED. */
  readonly ranking: readonly RankedAction[];
  /** What put the selected action ahead of the runner-up; null without a selection. */
  readonly selection_basis: SelectionBasis | null;
}

export interface ExecutionRiskTrace {
  /** 0 when the scenario declares no execution_risk. */
  readonly weight: number;
  readonly factors: Readonly<Record<string, number>>;
  /** Declared factors whose condition the request reported, in declaration order. */
  readonly applied_factors: readonly string[];
  /** Reported conditions the scenario declares no factor for: they cost nothing. */
  readonly ignored_conditions: readonly string[];
}

export interface ObjectiveScore {
  readonly name: string;
  readonly weight: number;
  /** What the objective returned; null when it failed (see `errors`). */
  readonly raw: number | null;
  /** weight × raw. */
  readonly contribution: number | null;
}

export interface ActionScore {
  readonly action_id: string;
  readonly type: string;
  readonly objectives: readonly ObjectiveScore[];
  /** Σ contributions; null when an objective failed. */
  readonly objective_total: number | null;
  /**
   * The applied factors this candidate is exposed to: a condition that takes the model away
   * (model-conditions.ts) only when its skill is an LLM skill and the mode is skill_enhanced,
   * any other factor always.
   */
  readonly execution_risk_factors: readonly string[];
  /** weight × the sum of its factors. */
  readonly execution_risk_penalty: number;
  /** objective_total − penalty, rounded to 9 decimal places (what ranking compares). */
  readonly final_score: number | null;
}

export type TieBreakKey = number | string | null;

export interface RankedAction {
  readonly rank: number;
  readonly action_id: string;
  readonly final_score: number;
  /** The value of each declared tie-break key for this action, in declaration order. */
  readonly tie_break_keys: readonly TieBreakKey[];
  /** What ordered this action ahead of the next one; null for the last. */
  readonly ahead_of_next: RankingBasis | null;
}

export type RankingBasis =
  | { readonly by: 'score' }
  /** The first declared tie-break key (0-based `index`) on which the two differ. */
  | { readonly by: 'tie_break'; readonly index: number }
  /** Equal on score and every key: action_id ascending, so the order is always total. */
  | { readonly by: 'action_id' };

export type SelectionBasis = RankingBasis | { readonly by: 'only_eligible' };

export type SelectionStage = keyof SelectionStages;

export interface FunctionError {
  readonly stage: SelectionStage;
  /** Which function failed, e.g. `state engagement_level`, `guardrail GR-X predicate`, `objective completion`. */
  readonly source: string;
  /** The candidate it was called for; null for functions of the state alone. */
  readonly action_id: string | null;
  readonly message: string;
}

export interface ModuleReference {
  readonly org: string;
  readonly domain: string;
  readonly world: string;
  readonly version: string;
  readonly module_hash: string;
}
