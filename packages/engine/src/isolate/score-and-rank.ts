/** Stage 4 (engine README, "Selection semantics"): each eligible candidate scored, then ranked by a total order. */
import { MODEL_CONDITIONS } from '../model-conditions.js';
import type { Candidate } from './evaluate-guardrails.js';
import { describe, record, type CycleError, type ModuleCall } from './module-calls.js';
import type { CompiledScenario, CompiledSkill } from './selection-module.js';

const { hasOwn, keys } = Object;
const { isFinite } = Number;
const { round } = Math;

const SCORING = 'score_and_rank';

// Conditions that take away the model an LLM skill needs: they put at risk only the
// candidates whose skill is an LLM skill, and only when the decision runs skill_enhanced
// (a deterministic_only decision never calls a model). Every other declared factor applies to
// every candidate.
const modelConditions = new Set(MODEL_CONDITIONS);

/** The part of the request stage 4 reads. */
export interface ScoringRequest {
  readonly conditions: readonly string[];
  readonly execution_mode: string;
}

interface ExecutionRisk {
  readonly weight: number;
  readonly factors: Readonly<Record<string, number>>;
  readonly applied_factors: string[];
  readonly ignored_conditions: string[];
}

interface ObjectiveScore {
  readonly name: string;
  readonly weight: number;
  readonly raw: number | null;
  readonly contribution: number | null;
}

interface CandidateScore {
  readonly action_id: string;
  readonly type: string;
  readonly objectives: ObjectiveScore[];
  readonly objective_total: number | null;
  readonly execution_risk_factors: string[];
  readonly execution_risk_penalty: number;
  readonly final_score: number | null;
}

type TieBreakKey = string | number | null;

interface RankedCandidate {
  readonly action_id: string;
  readonly final_score: number | null;
  readonly keys: readonly TieBreakKey[] | null;
}

type RankingBasis = { readonly by: 'score' } | { readonly by: 'tie_break'; readonly index: number } | { readonly by: 'action_id' } | { readonly by: 'only_eligible' };

export interface Ranking {
  readonly failed: boolean;
  readonly trace: {
    readonly execution_risk: ExecutionRisk;
    readonly scores: CandidateScore[];
    readonly ranking: { readonly action_id: string }[];
    readonly selection_basis: RankingBasis | null;
  };
}

// Ranking compares scores at 9 decimal places, so floating-point noise (0.1 + 0.2) never
// breaks a tie the author wrote; -0 becomes 0.
const atRankingPrecision = (value: number): number => round(value * 1e9) / 1e9 + 0;

function needsModel(skills: Readonly<Record<string, CompiledSkill>>, scenario: CompiledScenario, actionType: string, mode: string): boolean {
  if (mode !== 'skill_enhanced') return false;
  const type = scenario.action_types.find((candidateType) => candidateType.name === actionType);
  const skill = type && type.skill !== null && hasOwn(skills, type.skill) ? skills[type.skill] : undefined;
  return skill !== undefined && skill.type === 'llm';
}

function executionRisk(scenario: CompiledScenario, conditions: readonly string[]): ExecutionRisk {
  const risk = scenario.execution_risk;
  const factors = risk ? risk.factors : {};
  const reported = new Set(conditions);
  return {
    weight: risk ? risk.weight : 0,
    factors,
    applied_factors: keys(factors).filter((name) => reported.has(name)),
    ignored_conditions: [...reported].filter((name) => !hasOwn(factors, name)),
  };
}

// The factors one candidate is exposed to, and its penalty: weight × their sum.
function candidateRisk(skills: Readonly<Record<string, CompiledSkill>>, scenario: CompiledScenario, risk: ExecutionRisk, action: Candidate, mode: string): { factors: string[]; penalty: number } {
  const exposed = needsModel(skills, scenario, action.type, mode);
  const factors = risk.applied_factors.filter((name) => exposed || !modelConditions.has(name));
  let sum = 0;
  for (const name of factors) sum += risk.factors[name]!;
  return { factors, penalty: risk.weight * sum };
}

function scoreAction(call: ModuleCall, scenario: CompiledScenario, env: object, action: Candidate, exposure: { factors: string[]; penalty: number }, errors: CycleError[]): CandidateScore {
  let total = 0;
  let failed = false;
  const objectives: ObjectiveScore[] = [];
  for (const objective of scenario.objectives) {
    const source = 'objective ' + objective.name;
    const result = call(errors, SCORING, source, action.action_id, objective.score, [env, action]);
    const usable = result.ok && typeof result.value === 'number' && isFinite(result.value);
    if (result.ok && !usable) record(errors, SCORING, source, action.action_id, 'returned ' + describe(result.value) + ', not a finite number');
    if (!usable) {
      failed = true;
      objectives.push({ name: objective.name, weight: objective.weight, raw: null, contribution: null });
      continue;
    }
    const raw = (result as { value: number }).value;
    const contribution = objective.weight * raw;
    total += contribution;
    objectives.push({ name: objective.name, weight: objective.weight, raw, contribution });
  }
  return {
    action_id: action.action_id,
    type: action.type,
    objectives,
    objective_total: failed ? null : total,
    execution_risk_factors: exposure.factors,
    execution_risk_penalty: exposure.penalty,
    final_score: failed ? null : atRankingPrecision(total - exposure.penalty),
  };
}

// The tie-break key values of one candidate, or null when one of them failed.
function tieBreakKeys(call: ModuleCall, scenario: CompiledScenario, env: object, action: Candidate, errors: CycleError[]): TieBreakKey[] | null {
  let failed = false;
  const values: TieBreakKey[] = [];
  for (let index = 0; index < scenario.tie_breaks.length; index++) {
    const source = `tie_break[${index}]`;
    const result = call(errors, SCORING, source, action.action_id, scenario.tie_breaks[index]!.key, [env, action]);
    if (!result.ok) {
      failed = true;
      values.push(null);
      continue;
    }
    const value = result.value === undefined ? null : result.value;
    if (value === null || typeof value === 'string' || (typeof value === 'number' && isFinite(value))) {
      values.push(value);
      continue;
    }
    record(errors, SCORING, source, action.action_id, 'returned ' + describe(value) + ', which cannot be ordered');
    failed = true;
    values.push(null);
  }
  return failed ? null : values;
}

// Ascending order of two key values, null last whatever the direction.
function compareKey(a: TieBreakKey | undefined, b: TieBreakKey | undefined, direction: unknown): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const ascending = typeof a !== typeof b ? (typeof a === 'number' ? -1 : 1) : a! < b! ? -1 : a! > b! ? 1 : 0;
  return direction === 'desc' ? -ascending : ascending;
}

// Which of two candidates ranks first, and what decided it: a total order.
function compare(a: RankedCandidate, b: RankedCandidate, directions: readonly unknown[]): { order: number; basis: RankingBasis } {
  if (a.final_score !== b.final_score) return { order: a.final_score! > b.final_score! ? -1 : 1, basis: { by: 'score' } };
  for (let index = 0; index < directions.length; index++) {
    const order = compareKey(a.keys![index], b.keys![index], directions[index]);
    if (order !== 0) return { order, basis: { by: 'tie_break', index } };
  }
  const order = a.action_id < b.action_id ? -1 : a.action_id > b.action_id ? 1 : 0;
  return { order, basis: { by: 'action_id' } };
}

function rank(scenario: CompiledScenario, candidates: readonly RankedCandidate[]) {
  const directions = scenario.tie_breaks.map((tieBreak) => tieBreak.direction);
  const sorted = [...candidates].sort((a, b) => compare(a, b, directions).order);
  return sorted.map((candidate, i) => ({
    rank: i + 1,
    action_id: candidate.action_id,
    final_score: candidate.final_score,
    tie_break_keys: candidate.keys,
    ahead_of_next: i + 1 < sorted.length ? compare(candidate, sorted[i + 1]!, directions).basis : null,
  }));
}

export function scoreAndRank(
  call: ModuleCall,
  skills: Readonly<Record<string, CompiledSkill>>,
  scenario: CompiledScenario,
  env: object,
  eligible: readonly Candidate[],
  request: ScoringRequest,
  errors: CycleError[],
): Ranking {
  const risk = executionRisk(scenario, request.conditions);
  const before = errors.length;
  const scores = eligible.map((action) => scoreAction(call, scenario, env, action, candidateRisk(skills, scenario, risk, action, request.execution_mode), errors));
  const keyValues = eligible.map((action) => tieBreakKeys(call, scenario, env, action, errors));
  const failed = errors.length > before;
  const ranking = failed ? [] : rank(scenario, scores.map((score, i) => ({ action_id: score.action_id, final_score: score.final_score, keys: keyValues[i]! })));
  const first = ranking[0];
  const selectionBasis = first === undefined ? null : (first.ahead_of_next ?? { by: 'only_eligible' as const });
  return { failed, trace: { execution_risk: risk, scores, ranking, selection_basis: selectionBasis } };
}
