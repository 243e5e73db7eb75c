/**
 * The body of `POST /v1/feedback`: an execution outcome, shaped after the Execution
 * Outcome Package (docs/spec/contracts.md §3) (the fields the service keeps), reporting what became of a selected action.
 * `observed_effects` are the signal values the execution changed: they become the user's
 * short-term memory for the decision's scenario.
 */
import type { ErrorDetail } from '../api-error.js';
import { enumField, idField, keptField, kindOf, stringField } from '../pipeline/request-fields.js';
import type { RequestField, RequestSchema } from '../pipeline/request-schema.js';

export type OutcomeStatus = 'success' | 'failure' | 'partial' | 'aborted';

export interface FeedbackRequest {
  readonly outcomeId: string;
  readonly decisionId: string;
  readonly status: OutcomeStatus;
  /** The action executed; when given it must be the decision's selected action. */
  readonly actionName: string | null;
  readonly observedEffects: readonly ObservedEffect[];
  /** The package as received, for the audit record. */
  readonly body: Readonly<Record<string, unknown>>;
}

export interface ObservedEffect {
  readonly signal: string;
  readonly value: unknown;
}

const STATUSES: readonly OutcomeStatus[] = ['success', 'failure', 'partial', 'aborted'];
const MAX_EFFECTS = 100;

/** `observed_effects`: at most 100 `{ signal, value }`; whether each fits the scenario is the handler's to check. */
const OBSERVED_EFFECTS: RequestField = {
  name: 'observed_effects',
  required: false,
  schema: {
    type: 'array',
    maxItems: MAX_EFFECTS,
    items: { type: 'object', required: ['signal', 'value'], properties: { signal: { type: 'string', minLength: 1 }, value: {} } },
    description: "New values of the scenario's signals, remembered for the decision's user",
  },
  check: effectProblems,
};

export const FEEDBACK_REQUEST: RequestSchema = {
  noun: 'execution outcome',
  article: 'an',
  fields: [
    idField('outcome_id', { required: true, description: 'Unique per org: a retry with the same id and body is idempotent' }),
    idField('decision_id', { required: true, description: 'The selection whose action was executed' }),
    enumField('status', STATUSES),
    stringField('action_name', 'Optional: must be the selected action'),
    keptField('start_time', 'string'),
    keptField('end_time', 'string'),
    OBSERVED_EFFECTS,
    keptField('deviations', 'array'),
    keptField('error_diagnostics', 'object'),
    keptField('telemetry', 'object'),
  ],
};

/** The request in a body `FEEDBACK_REQUEST` accepted. */
export function feedbackRequestOf(fields: Readonly<Record<string, unknown>>): FeedbackRequest {
  const effects = (fields['observed_effects'] as readonly { signal: string; value: unknown }[] | undefined) ?? [];
  return {
    outcomeId: fields['outcome_id'] as string,
    decisionId: fields['decision_id'] as string,
    status: fields['status'] as OutcomeStatus,
    actionName: (fields['action_name'] as string | null | undefined) ?? null,
    observedEffects: effects.map(({ signal, value }) => ({ signal, value })),
    body: fields,
  };
}

function effectProblems(value: unknown, path: string): ErrorDetail[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [{ path, message: `expected a list of { signal, value }, found ${kindOf(value)}` }];
  if (value.length > MAX_EFFECTS) return [{ path, message: `holds ${value.length} effects; at most ${MAX_EFFECTS}` }];
  return value.flatMap((effect: unknown, i): ErrorDetail[] => {
    const at = `${path}[${i}]`;
    if (effect === null || typeof effect !== 'object' || Array.isArray(effect)) return [{ path: at, message: `expected { "signal": "…", "value": … }, found ${kindOf(effect)}` }];
    const { signal, value: observed } = effect as Record<string, unknown>;
    if (typeof signal !== 'string' || signal === '') return [{ path: `${at}.signal`, message: `expected a signal name, found ${kindOf(signal)}` }];
    if (observed === undefined) return [{ path: `${at}.value`, message: 'is required' }];
    return [];
  });
}
