/**
 * Stage 7 (seed 000; SEC §2–§4): a skill's payload is checked against its contract, and the
 * result decides between the payload and the fallback. Every check runs and every failure is
 * recorded, so the trace says all that was wrong, not just the first thing:
 *
 *   schema_valid               the output schema (ajv: types, `additionalProperties: false`,
 *                              lengths, required fields)
 *   invariants_satisfied       INV-001..006 and the skill's compiled invariants (run in the
 *                              isolate, where the module's functions live)
 *   authority_boundary_intact  the payload neither names another candidate nor ranks, compares
 *                              or re-decides: the selection locked at stage 4
 *   prohibited_fields_absent   the universal prohibitions, the skill's own, and the host's
 *                              competitor names
 */
import type { CandidateAction } from '../selection-request.js';
import type { SkillContract } from './skill-catalog.js';
import type { SkillCrossings } from './skill-crossings.js';
import type { SkillInput } from './skill-input.js';
import { universalInvariantFailures } from './universal-invariants.js';
import { UNIVERSAL_PROHIBITIONS } from './universal-prohibitions.js';

export type ValidationCheck = 'schema_valid' | 'invariants_satisfied' | 'authority_boundary_intact' | 'prohibited_fields_absent';

export interface ValidationFailure {
  readonly check: ValidationCheck;
  /** The invariant or prohibition id (`INV-003`, `FIT-001`, `PROHIB-002`), or the schema keyword. */
  readonly id: string;
  readonly path: string;
  readonly message: string;
}

export interface ValidationResult {
  readonly valid: boolean;
  readonly checks_passed: readonly ValidationCheck[];
  readonly checks_failed: readonly ValidationCheck[];
  readonly failures: readonly ValidationFailure[];
  /** SEC §6's fallback reason for a failed validation: prohibited content, or any other failure. */
  readonly reason_code: 'validation_failed' | 'prohibited_content' | null;
}

export interface ValidationContext {
  readonly crossings: SkillCrossings;
  readonly skill: SkillContract;
  readonly input: SkillInput;
  /** Every candidate of the request: naming any but the selected one crosses the boundary. */
  readonly candidates: readonly CandidateAction[];
  readonly competitorNames: readonly string[];
  readonly timeLimitMs: number;
}

const CHECKS: readonly ValidationCheck[] = ['schema_valid', 'invariants_satisfied', 'authority_boundary_intact', 'prohibited_fields_absent'];
const RERANKING = /\b(?:rank(?:ed|ing|s)?|runner[- ]up|second[- ]best|next best|alternatives?|another (?:option|session|action)|other options?)\b/i;

export async function validateOutput(payload: unknown, context: ValidationContext): Promise<ValidationResult> {
  const failures: ValidationFailure[] = [
    ...schemaFailures(payload, context.skill),
    ...universalInvariantFailures(payload, context.skill.outputSchema).map((failure) => ({ check: 'invariants_satisfied' as const, ...failure })),
    ...(await compiledInvariantFailures(payload, context)),
    ...authorityFailures(payload, context),
    ...prohibitionFailures(payload, context),
  ];
  const failed = new Set(failures.map((failure) => failure.check));
  const valid = failed.size === 0;
  const prohibitedOnly = failures.length > 0 && failures.every((failure) => failure.check === 'prohibited_fields_absent');
  return {
    valid,
    checks_passed: CHECKS.filter((check) => !failed.has(check)),
    checks_failed: CHECKS.filter((check) => failed.has(check)),
    failures,
    reason_code: valid ? null : prohibitedOnly ? 'prohibited_content' : 'validation_failed',
  };
}

function schemaFailures(payload: unknown, skill: SkillContract): ValidationFailure[] {
  if (skill.validate(payload)) return [];
  return (skill.validate.errors ?? []).map((error) => ({
    check: 'schema_valid',
    id: error.keyword,
    path: `payload${error.instancePath.replaceAll('/', '.')}`,
    message: error.keyword === 'additionalProperties' ? `has a field the contract does not declare: \`${String(error.params['additionalProperty'])}\`` : (error.message ?? 'does not match the schema'),
  }));
}

async function compiledInvariantFailures(payload: unknown, context: ValidationContext): Promise<ValidationFailure[]> {
  if (context.skill.invariants.length === 0) return [];
  const crossing = await context.crossings.call('__adec_skill_invariants', context.skill.id, JSON.stringify({ ...context.input, payload }), context.timeLimitMs);
  if (!crossing.ok) return [{ check: 'invariants_satisfied', id: 'SANDBOX', path: 'payload', message: `the skill's invariants could not be evaluated (${crossing.kind}): ${crossing.message}` }];
  const results = JSON.parse(crossing.value) as { id: string; holds: boolean; error: string | null }[];
  return results
    .filter((result) => !result.holds)
    .map((result) => {
      const invariant = context.skill.invariants.find((declared) => declared.id === result.id);
      const what = invariant === undefined ? result.id : `${result.id} (${invariant.description}: ${invariant.source})`;
      return { check: 'invariants_satisfied', id: result.id, path: 'payload', message: result.error === null ? `${what} does not hold` : `${what} failed: ${result.error}` };
    });
}

/** Strings of the payload with their paths. */
function texts(value: unknown, path = 'payload'): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => texts(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([name, item]) => texts(item, `${path}.${name}`));
  return [];
}

/**
 * Naming another candidate (its id, or a name or title field of it that the selected action
 * does not share), or ranking and comparing options, is an attempt to re-decide.
 */
function authorityFailures(payload: unknown, context: ValidationContext): ValidationFailure[] {
  const selected = context.input.decision_context.selected_action;
  const selectedNames = new Set(Object.values(context.candidates.find((candidate) => candidate.action_id === selected) ?? {}).filter((v) => typeof v === 'string').map((v) => (v as string).toLowerCase()));
  const others = context.candidates
    .filter((candidate) => candidate.action_id !== selected)
    .flatMap((candidate) => [candidate.action_id, ...Object.entries(candidate).filter(([field, value]) => /name|title/i.test(field) && typeof value === 'string').map(([, value]) => value as string)])
    .filter((name) => name.trim().length >= 3 && !selectedNames.has(name.toLowerCase()));
  const failures: ValidationFailure[] = [];
  for (const { path, text } of texts(payload)) {
    const named = others.find((name) => wholeWords(name).test(text));
    if (named !== undefined) failures.push({ check: 'authority_boundary_intact', id: 'NAMES_OTHER_ACTION', path, message: `names ${JSON.stringify(named)}, which is not the selected action` });
    if (RERANKING.test(text)) failures.push({ check: 'authority_boundary_intact', id: 'RERANKS', path, message: 'ranks or compares the options' });
  }
  return failures;
}

/** `name` as whole words, ignoring case: `rest` is named in "a rest day", not in "interesting". */
function wholeWords(name: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
}

function prohibitionFailures(payload: unknown, context: ValidationContext): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  const competitors = context.competitorNames.filter((name) => name.trim() !== '');
  for (const { path, text } of texts(payload)) {
    for (const prohibition of UNIVERSAL_PROHIBITIONS) {
      if (prohibition.regex.test(text)) failures.push({ check: 'prohibited_fields_absent', id: prohibition.id, path, message: prohibition.category });
    }
    for (const prohibition of context.skill.prohibitions) {
      prohibition.regex.lastIndex = 0;
      if (prohibition.regex.test(text)) failures.push({ check: 'prohibited_fields_absent', id: prohibition.id, path, message: prohibition.reason });
    }
    const competitor = competitors.find((name) => text.toLowerCase().includes(name.toLowerCase()));
    if (competitor !== undefined) failures.push({ check: 'prohibited_fields_absent', id: 'PROHIB-COMPETITOR', path, message: `names ${JSON.stringify(competitor)}, a competitor` });
  }
  return failures;
}
