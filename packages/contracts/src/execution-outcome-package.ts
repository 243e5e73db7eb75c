/**
 * The Execution Outcome Package v1 (docs/spec/contracts.md §3): the doing side's report of what
 * became of a selected action, which `POST /v1/feedback` accepts whole and stores as received.
 * Every field of the reference contract is here under its own name.
 *
 * It is untrusted input, so every object is closed and every list and string bounded: a package
 * that fits this schema is what the service stores, never more. Required are only the three
 * fields the service cannot do without (3.1.2); each other field, when present, must be whole:
 * inside an item, every field the reference lists is required unless it marks it optional.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Closed, OneOf, REQUEST_ID_PATTERN, Timestamp } from './schema-kit.js';

/** The versions of this contract the service reads; a package without `schema_version` is read as the first. */
export const EXECUTION_OUTCOME_SCHEMA_VERSIONS = ['1.0.0'] as const;

export const OUTCOME_STATUSES = ['success', 'failure', 'partial', 'aborted'] as const;
export const DEVIATION_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

/** The list limit of the reference's lists (observed_effects had it before this contract). */
const MAX_ITEMS = 100;

/** Limits of the kinds of text a package holds. */
const name = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const text = (description: string) => Type.String({ maxLength: 2000, description });
const reference = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });
const id = (description: string) => Type.String({ pattern: REQUEST_ID_PATTERN, description });
const list = <S extends TSchema>(items: S, description: string, maxItems = MAX_ITEMS) => Type.Array(items, { maxItems, description });
const amount = (description: string) => Type.Number({ minimum: 0, description });

export const ObservedEffect = Closed(
  {
    signal: name("A signal of the selection's scenario"),
    value: Type.Unknown({ description: "Its new value, of the signal's type" }),
  },
  { description: 'adec: a signal value the execution changed; it becomes the user’s short-term memory (docs/spec/contracts.md 3.2.2)' },
);

export const ExecutionStateTransition = Closed({
  time: Timestamp('When the execution entered the state'),
  state: name('The state entered, e.g. `started`, `waiting`, `completed`'),
  note: text('Why, in a sentence; may be empty'),
});

export const Deviation = Closed({
  expected: Type.Unknown({ description: 'What the decision expected (a value or a description)' }),
  observed: Type.Unknown({ description: 'What was observed instead' }),
  severity: OneOf(DEVIATION_SEVERITIES),
  remediation: text('What was or should be done about it; may be empty'),
});

export const SafetyValidationResult = Closed({
  invariant_id: name('The invariant revalidated at execution time'),
  pass_fail: OneOf(['pass', 'fail']),
  detail: text('What was checked, or why it failed; may be empty'),
});

export const ErrorDiagnostics = Closed({
  code: name('A machine-readable error code'),
  message: text('What went wrong'),
  category: name('The kind of error, e.g. `timeout`, `dependency`, `validation`'),
  logs_ref: Type.Optional(reference('Where the execution’s logs are')),
});

export const Telemetry = Closed({
  latency_ms: amount('How long the execution took'),
  cost: amount('What it cost, in the doing side’s unit'),
  resource_usage: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' }), Type.Number(), {
    additionalProperties: false,
    maxProperties: 32,
    description: 'Amounts by resource name (1–64 letters, digits, `_`, `.`, `:`, `-`), e.g. `{ "cpu_ms": 12 }`',
  }),
  api_quota_used: amount('The API quota the execution used'),
});

export const Artifact = Closed({
  artifact_id: name('The artifact’s id on the doing side'),
  kind: name('What it is, e.g. `message`, `report`, `file`'),
  uri: reference('Where it is'),
  checksum: name('Its checksum, e.g. `sha256:…`'),
});

export const ReengagementAdvice = Closed({
  trigger: name('Why the deciding side should decide again'),
  payload_ref: reference('Where what it needs for that is'),
});

export const ExecutionOutcomePackage = Closed(
  {
    outcome_id: id('Unique per org, 1–128 letters, digits, `.`, `_`, `:` or `-`: a retry with the same id and package is idempotent'),
    schema_version: Type.Optional(OneOf(EXECUTION_OUTCOME_SCHEMA_VERSIONS, { description: 'The version of this contract; absent: 1.0.0' })),
    decision_id: id('The selection whose action was executed (its `decision.decision_id`)'),
    action_name: Type.Optional(name('The action executed: the selection’s `selected_action`')),
    start_time: Type.Optional(Timestamp('When the execution started')),
    end_time: Type.Optional(Timestamp('When it ended; not before `start_time`')),
    status: OneOf(OUTCOME_STATUSES),
    execution_state_transitions: Type.Optional(list(ExecutionStateTransition, 'The states the execution went through, in order')),
    observed_effects: Type.Optional(list(ObservedEffect, "New values of the scenario's signals, remembered for the decision's user")),
    deviations: Type.Optional(list(Deviation, 'Where what happened differs from what was expected')),
    safety_validation_results: Type.Optional(list(SafetyValidationResult, 'The invariants revalidated at execution time')),
    error_diagnostics: Type.Optional(ErrorDiagnostics),
    telemetry: Type.Optional(Telemetry),
    artifacts: Type.Optional(list(Artifact, 'What the execution produced')),
    outcome_trace_ref: Type.Optional(reference('Where the doing side’s trace of the execution is')),
    world_version_id_before: Type.Optional(
      name('The world the decision was made against: in adec, the module hash of the selection (its `audit.scenario_hash`), and refused if it is another (docs/spec/contracts.md 3.1.5)'),
    ),
    world_version_id_after: Type.Optional(name('The world after the execution, as the doing side names it; recorded, not checked (docs/spec/contracts.md 3.1.5)')),
    next_actions_suggested: Type.Optional(list(name('An action the doing side suggests next'), 'What to do next, by action name', 50)),
    reengagement_advice: Type.Optional(ReengagementAdvice),
  },
  { description: 'docs/spec/contracts.md §3: the Execution Outcome Package v1' },
);
