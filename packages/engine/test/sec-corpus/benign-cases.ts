/**
 * The benign corpus as requests and expectations, for the library's `runCycle` and for
 * `POST /v1/select` alike: what each entry asks, what must come back (its action selected, the
 * LLM skill's reply used as it is, every check of stage 7 passed, no fallback), and a message
 * that names the checks and failure ids of the trace when it does not.
 */
import type { CandidateAction, DecisionResponse, ValidationFailure, ValidationResult } from '@adec/engine';
import { FITNESS_CORPUS, LAB_CORPUS, type Note, type Quiet, type RestDay, type WorkoutSession } from './benign-rationales.js';

export type CorpusWorld = 'fitness' | 'sec-lab';

export interface BenignCase {
  readonly id: string;
  readonly world: CorpusWorld;
  readonly scenario: string;
  readonly signals: Readonly<Record<string, unknown>>;
  /** The selected action and its rivals, the selected one at a position that varies by entry. */
  readonly actions: readonly CandidateAction[];
  readonly selected: string;
  /** The LLM skill that explains the selected action. */
  readonly skill: string;
  /** The model's reply, as JSON. */
  readonly reply: unknown;
  /** The selected action as the failure messages name it. */
  readonly label: string;
}

/** The worlds as the corpus's entries were written for them. */
export const WORLD_DIRS: Readonly<Record<CorpusWorld, string>> = { fitness: 'examples/fitness', 'sec-lab': 'packages/engine/test/worlds/sec-lab' };
export const WORLD_HEADERS: Readonly<Record<CorpusWorld, { domain: string; world_model_version: string }>> = {
  fitness: { domain: 'fitness.coaching', world_model_version: '1.0.0' },
  'sec-lab': { domain: 'sec.lab', world_model_version: '1.0.0' },
};

/** The selected action among its rivals, at a position that moves with the entry's number. */
function placed<T extends { readonly action_id: string; readonly type: string }>(index: number, selected: T, rivals: readonly T[]): CandidateAction[] {
  const at = index % (rivals.length + 1);
  return [...rivals.slice(0, at), selected, ...rivals.slice(at)].map((action) => ({ ...action }));
}

export const BENIGN_CASES: readonly BenignCase[] = [
  ...FITNESS_CORPUS.map((entry, i) => ({
    id: entry.id,
    world: 'fitness' as const,
    scenario: 'fitness_daily_session',
    signals: { ...entry.signals },
    actions: placed<WorkoutSession | RestDay>(i, entry.selected, entry.rivals),
    selected: entry.selected.action_id,
    skill: 'fitness_session_rationale',
    reply: entry.reply,
    label: entry.selected.session_name,
  })),
  ...LAB_CORPUS.map((entry, i) => ({
    id: entry.id,
    world: 'sec-lab' as const,
    scenario: 'lab_pick',
    signals: { ...entry.signals },
    actions: placed<Note | Quiet>(i, entry.selected, entry.rivals),
    selected: entry.selected.action_id,
    skill: 'note_writer',
    reply: entry.reply,
    label: `${entry.selected.title} (${entry.selected.topic})`,
  })),
];

/**
 * What is wrong with the answer to `benign`, or null when it is what the corpus promises: the
 * entry's action selected, the LLM skill's reply used as it is after every check passed.
 */
export function benignProblems(benign: BenignCase, response: DecisionResponse | null, validation: ValidationResult | null | undefined, violations: readonly ValidationFailure[] = []): string | null {
  const problems: string[] = [];
  if (response === null) return `${heading(benign)}\n    no response`;
  if (response.decision.selected_action !== benign.selected) problems.push(`selected ${response.decision.selected_action}, not ${benign.selected}`);
  const { execution } = response;
  if (execution.validation_status !== 'passed' || execution.fallback_used || execution.skill_bundle_id !== benign.skill) {
    problems.push(`execution: ${execution.skill_bundle_id}, validation ${execution.validation_status}, fallback ${execution.fallback_used ? `used (${execution.fallback_reason_code}, tier ${execution.fallback_tier})` : 'not used'}`);
  }
  if (validation !== null && validation !== undefined && !validation.valid) {
    problems.push(`checks failed: ${validation.checks_failed.join(', ')}`);
    for (const failure of validation.failures) problems.push(`  ${failure.check} ${failure.id} at ${failure.path}: ${failure.message}`);
  }
  if (violations.length > 0) problems.push(`authority violations logged: ${[...new Set(violations.map((v) => v.id))].join(', ')}`);
  if (problems.length === 0 && JSON.stringify(response.decision.payload) !== JSON.stringify(benign.reply)) problems.push(`the payload is not the reply: ${JSON.stringify(response.decision.payload)}`);
  return problems.length === 0 ? null : `${heading(benign)}\n    ${problems.join('\n    ')}`;
}

function heading(benign: BenignCase): string {
  return `${benign.id} ${benign.label}: ${JSON.stringify(benign.reply)}`;
}

/** The line both tests print: `<what>: 222/222 passed (100%)`. */
export function passRate(what: string, passed: number, total: number): string {
  return `${what}: ${passed}/${total} passed (${total === 0 ? 0 : Math.floor((passed / total) * 1000) / 10}%)`;
}
