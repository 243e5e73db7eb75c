/**
 * How a decision is answered, as its route's query asks:
 *
 * - `?traces=false` (`POST /v1/decide`): without the per-rule predicate traces
 *   (docs/spec/adjudication.md §5.2), most of the answer's size for an action of many rules, for
 *   a caller that acts on the status and work_frame and never reads them;
 * - `?format=decision-package` (`POST /v1/decide`, `POST /v1/select`, `GET /v1/decisions/{id}`):
 *   the Decision Package v1 made with the decision (docs/spec/contracts.md §2) instead of the
 *   route's own shape.
 *
 * The audit record keeps the whole decision and its package either way. Any other parameter, or
 * value, is refused before anything is decided.
 */
import type { Decision } from '@adec/runtime';
import { apiError, type ApiError } from '../api-error.js';
import type { DecisionPackage } from '../decision-package.js';
import type { Answer, AnswerHeaders, ServiceResult } from '../pipeline/operation.js';

export interface AnswerQuery {
  /** Whether an adjudication's answer holds its predicate traces. */
  readonly traces: boolean;
  /** Whether the answer is the decision's Decision Package. */
  readonly packaged: boolean;
}

export type AnswerParameter = 'traces' | 'format';

/** The values each parameter takes. */
const CHOICES: Readonly<Record<AnswerParameter, readonly string[]>> = { traces: ['true', 'false'], format: ['decision-package'] };

/** A reader of a route's query that takes `parameters` and nothing else. */
export function answerQueryReader(parameters: readonly AnswerParameter[]): (query: unknown) => ServiceResult<AnswerQuery> {
  const only = parameters.join(' and ');
  return (query) => {
    const given = typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
    const unknown = Object.keys(given).filter((name) => !(parameters as readonly string[]).includes(name));
    if (unknown.length > 0) {
      const names = unknown.map((name) => JSON.stringify(name.slice(0, 64))).join(', ');
      return refused(`unknown query parameter${unknown.length === 1 ? '' : 's'} ${names}: this route takes ${only}`, unknown.map((name) => ({ path: `?${name.slice(0, 64)}`, message: 'is not a parameter of this route' })));
    }
    for (const name of parameters) {
      const value = given[name];
      if (value !== undefined && !CHOICES[name].includes(value as string)) {
        const allowed = CHOICES[name].join(' or ');
        const found = typeof value === 'string' ? JSON.stringify(value.slice(0, 64)) : 'it more than once';
        return refused(`query parameter ${name} must be ${allowed}, found ${found}`, [{ path: `?${name}`, message: `must be ${allowed}` }]);
      }
    }
    return { ok: true, value: { traces: given['traces'] !== 'false', packaged: given['format'] === 'decision-package' } };
  };
}

function refused(message: string, details: ApiError['details']): ServiceResult<never> {
  return { ok: false, error: apiError(400, 'INVALID_QUERY', message, details) };
}

/** The JSON text of `decision` without its predicate traces. */
export function withoutTracesJson(decision: Decision): string {
  return JSON.stringify({ ...decision, decision_metadata: { ...decision.decision_metadata, predicate_traces: undefined } });
}

/** A decision answered as its Decision Package; a decision without one (recorded before packages were) is a 409. */
export function packageAnswer(decisionPackage: DecisionPackage | null, decisionId: string, headers: AnswerHeaders): Answer {
  if (decisionPackage === null) return { ok: false, error: apiError(409, 'NO_DECISION_PACKAGE', `decision ${decisionId} has no Decision Package: it chose no action, or was recorded before decisions stored one`), headers };
  return { ok: true, status: 200, body: decisionPackage, json: JSON.stringify(decisionPackage), headers };
}
