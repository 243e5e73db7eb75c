/**
 * Stage 7 (docs/spec/selection.md §3.7; docs/spec/skill-contract.md §2–§4): a skill's payload is checked against its contract, and the
 * result decides between the payload and the fallback. Every check runs and every failure is
 * recorded, so the trace says all that was wrong, not just the first thing:
 *
 *   schema_valid               an executor's reply is the output envelope (skill-reply.ts),
 *                              and the payload meets the output schema (ajv: types,
 *                              `additionalProperties: false`, lengths, required fields)
 *   invariants_satisfied       INV-001..006 and the skill's compiled invariants (run in the
 *                              isolate, where the module's functions live)
 *   authority_boundary_intact  the payload neither names another candidate nor ranks, compares
 *                              or re-decides: the selection locked at stage 4
 *   prohibited_fields_absent   the universal prohibitions, the skill's own, and the host's
 *                              competitor names
 *
 * Every check that reads text reads it as written and as a reader sees it (text/read-text.ts,
 * docs/skill-text.md): a name or a banned word disguised with invisible or look-alike
 * characters, odd spacing or punctuation is found, and the failure records the excerpt that
 * matched and where it is in the original.
 */
import type { ValidationCheck as ValidationCheckSchema, ValidationFailure as ValidationFailureSchema, ValidationResult as ValidationResultSchema, Wire } from '@adec/contracts';
import type { CandidateAction } from '../selection-request.js';
import type { SkillContract } from './skill-catalog.js';
import type { SkillCrossings } from './skill-crossings.js';
import type { SkillExecution } from './execute-skill.js';
import { moduleSkillInput, type SkillInput } from './skill-input.js';
import { readSkillReply } from './skill-reply.js';
import { findTerm, termLetters } from './text/protected-terms.js';
import { RANKING_LANGUAGE } from './text/ranking-language.js';
import { findPattern, textForms, type TextForms } from './text/text-forms.js';
import { universalInvariantFailures } from './universal-invariants.js';
import { UNIVERSAL_PROHIBITIONS } from './universal-prohibitions.js';

export type ValidationCheck = Wire<typeof ValidationCheckSchema>;
export type ValidationFailure = Wire<typeof ValidationFailureSchema>;
/** Stage 7's output (@adec/contracts); `reason_code` is docs/spec/skill-contract.md §6's fallback reason for a failure. */
export type ValidationResult = Wire<typeof ValidationResultSchema>;

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

/** What stage 7 checks: the payload stage 6 produced and, for a model's, the reply it came in. */
export type ValidatedOutput = Pick<SkillExecution, 'payload' | 'model_outcome'>;

export async function validateOutput(output: ValidatedOutput, context: ValidationContext): Promise<ValidationResult> {
  const started = performance.now();
  const { payload } = output;
  // Each string is read once, for every check that reads text.
  const formsByText = new Map<string, TextForms>();
  const formsOf = (text: string): TextForms => {
    let forms = formsByText.get(text);
    if (forms === undefined) formsByText.set(text, (forms = textForms(text)));
    return forms;
  };
  const read = texts(payload).map(({ path, text }) => ({ path, forms: formsOf(text) }));
  const failures: ValidationFailure[] = [
    ...(output.model_outcome?.kind === 'reply' ? readSkillReply(output.model_outcome.text, context.skill).failures : []),
    ...schemaFailures(payload, context.skill),
    ...universalInvariantFailures(payload, context.skill.outputSchema, formsOf).map((failure) => ({ check: 'invariants_satisfied' as const, ...failure })),
    ...(await compiledInvariantFailures(payload, context)),
    ...authorityFailures(read, context),
    ...prohibitionFailures(read, context),
  ];
  const failed = new Set(failures.map((failure) => failure.check));
  const valid = failed.size === 0;
  const prohibitedOnly = failures.length > 0 && failures.every((failure) => failure.check === 'prohibited_fields_absent');
  return {
    valid,
    checks_passed: CHECKS.filter((check) => !failed.has(check)),
    checks_failed: CHECKS.filter((check) => failed.has(check)),
    validation_duration_ms: performance.now() - started,
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
  const crossing = await context.crossings.call('__adec_skill_invariants', context.skill.id, JSON.stringify({ ...moduleSkillInput(context.input), payload }), context.timeLimitMs);
  if (!crossing.ok) return [{ check: 'invariants_satisfied', id: 'SANDBOX', path: 'payload', message: `the skill's invariants could not be evaluated (${crossing.kind}): ${crossing.message}` }];
  const results = JSON.parse(crossing.value) as { id: string; as_written: InvariantResult; as_read: InvariantResult }[];
  return results.flatMap((result) => {
    const invariant = context.skill.invariants.find((declared) => declared.id === result.id);
    const what = invariant === undefined ? result.id : `${result.id} (${invariant.description}: ${invariant.source})`;
    const failed = !result.as_written.holds ? { ...result.as_written, how: '' } : !result.as_read.holds ? { ...result.as_read, how: ' as a reader sees the text' } : null;
    if (failed === null) return [];
    return [{ check: 'invariants_satisfied' as const, id: result.id, path: 'payload', message: failed.error === null ? `${what} does not hold${failed.how}` : `${what} failed${failed.how}: ${failed.error}` }];
  });
}

interface InvariantResult {
  readonly holds: boolean;
  readonly error: string | null;
}

/** Strings of the payload with their paths. */
function texts(value: unknown, path = 'payload'): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => texts(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([name, item]) => texts(item, `${path}.${name}`));
  return [];
}

interface ReadString {
  readonly path: string;
  readonly forms: TextForms;
}

/** A protected term: how it is shown in a failure, and the letters that spell it. */
interface Term {
  readonly name: string;
  readonly letters: string;
}

/**
 * Naming another candidate (its id, or a name or title field of it), or ranking and comparing
 * options, is an attempt to re-decide. A rival's name found inside the selected action's own
 * name ("Yoga" in "Morning Yoga") is the selected action's.
 */
function authorityFailures(read: readonly ReadString[], context: ValidationContext): ValidationFailure[] {
  const selected = context.input.decision_context.selected_action;
  const selectedTerms = context.candidates.filter((candidate) => candidate.action_id === selected).flatMap(candidateTerms);
  const selectedLetters = new Set(selectedTerms.map((term) => term.letters));
  const rivals = context.candidates
    .filter((candidate) => candidate.action_id !== selected)
    .flatMap(candidateTerms)
    .filter((term) => term.letters.length >= 3 && !selectedLetters.has(term.letters));
  const failures: ValidationFailure[] = [];
  for (const { path, forms } of read) {
    const own = selectedTerms.flatMap((term) => findTerm(term.letters, forms));
    for (const rival of rivals) {
      const match = findTerm(rival.letters, forms).find((found) => !own.some((mine) => mine.start <= found.start && found.end <= mine.end));
      if (match !== undefined) {
        failures.push({ check: 'authority_boundary_intact', id: 'NAMES_OTHER_ACTION', path, message: `names ${JSON.stringify(rival.name)}, which is not the selected action`, match });
        break;
      }
    }
    for (const kind of RANKING_LANGUAGE) {
      const match = findPattern(kind.pattern, forms);
      if (match !== null) failures.push({ check: 'authority_boundary_intact', id: kind.id, path, message: `ranks or compares the options: ${kind.meaning}`, match });
    }
  }
  return failures;
}

/** A candidate's id and the text of its name and title fields. */
function candidateTerms(candidate: CandidateAction): Term[] {
  const names = [candidate.action_id, ...Object.entries(candidate).filter(([field, value]) => /name|title/i.test(field) && typeof value === 'string').map(([, value]) => value as string)];
  return names.map((name) => ({ name, letters: termLetters(name) }));
}

function prohibitionFailures(read: readonly ReadString[], context: ValidationContext): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  const competitors = context.competitorNames.map((name) => ({ name, letters: termLetters(name) })).filter((term) => term.letters !== '');
  for (const { path, forms } of read) {
    for (const prohibition of UNIVERSAL_PROHIBITIONS) {
      const match = findPattern(prohibition.regex, forms);
      if (match !== null) failures.push({ check: 'prohibited_fields_absent', id: prohibition.id, path, message: prohibition.category, match });
    }
    for (const prohibition of context.skill.prohibitions) {
      const match = findPattern(prohibition.regex, forms);
      if (match !== null) failures.push({ check: 'prohibited_fields_absent', id: prohibition.id, path, message: prohibition.reason, match });
    }
    for (const competitor of competitors) {
      const [match] = findTerm(competitor.letters, forms);
      if (match !== undefined) {
        failures.push({ check: 'prohibited_fields_absent', id: 'PROHIB-COMPETITOR', path, message: `names ${JSON.stringify(competitor.name)}, a competitor`, match });
        break;
      }
    }
  }
  return failures;
}
