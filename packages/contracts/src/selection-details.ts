/**
 * What adec records about stages 2–8 beyond the reference contract's fields (docs/spec/selection.md
 * §3): each guardrail's verdict, each candidate's score breakdown, each validation failure and
 * where it matched, the model's reply as received, the crossings that failed for the machine's
 * reasons. These are the extension fields of the stage artifacts (docs/spec/contracts.md 1.3):
 * what lets a reader see why, and a replay reproduce exactly.
 */
import { Type } from '@sinclair/typebox';
import { EXECUTION_MODES } from '@adec/abi';
import { Closed, Milliseconds, Nullable, OneOf, OpenObject, Sha256 } from './schema-kit.js';

export const ExecutionMode = OneOf(EXECUTION_MODES, { description: 'docs/spec/selection.md §5' });

export const CandidateAction = Type.Object(
  { action_id: Type.String({ minLength: 1 }), type: Type.String({ minLength: 1 }) },
  { additionalProperties: true, description: "A candidate: its id, its action type, and that type's fields" },
);

export const ModuleReference = Closed(
  { org: Type.String(), domain: Type.String(), world: Type.String(), version: Type.String(), module_hash: Type.String() },
  { description: 'The module that decided: the scenario as compiled, signed and approved' },
);

export const SelectionStage = OneOf(['derive_state', 'evaluate_guardrails', 'score_and_rank']);

export const FunctionError = Closed(
  {
    stage: SelectionStage,
    source: Type.String({ description: 'Which module function failed, e.g. `state engagement_level`, `objective completion`' }),
    action_id: Nullable(Type.String(), { description: 'The candidate it was called for; null for functions of the state alone' }),
    message: Type.String(),
  },
  { description: 'A module function of stages 2–4 that threw or returned an unusable value' },
);

export const GuardrailVerdict = Closed(
  {
    id: Type.String(),
    description: Type.String(),
    effect: OneOf(['block', 'force', 'cap']),
    fired: Type.Boolean({ description: 'Its `when` held (or threw: a guardrail that cannot be evaluated applies)' }),
    reason_code: Type.String({ description: 'Recorded on the candidates it rejects: the guardrail id' }),
    affected_actions: Type.Array(Type.String(), { description: 'The candidates it rejected, in request order' }),
    action_type: Nullable(Type.String(), { description: '`force`: the only action type that stays eligible' }),
    field: Nullable(Type.String(), { description: '`cap`: the numeric field that must not exceed the limit' }),
  },
  { description: "One guardrail's verdict, in declaration order" },
);

export const ExecutionRisk = Closed({
  weight: Type.Number({ description: '0 when the scenario declares no execution_risk' }),
  factors: Type.Record(Type.String(), Type.Number()),
  applied_factors: Type.Array(Type.String(), { description: 'Declared factors whose condition the request reported' }),
  ignored_conditions: Type.Array(Type.String(), { description: 'Reported conditions no factor is declared for' }),
});

export const ObjectiveScore = Closed({
  name: Type.String(),
  weight: Type.Number(),
  raw: Nullable(Type.Number(), { description: 'What the objective returned; null when it failed' }),
  contribution: Nullable(Type.Number(), { description: 'weight × raw' }),
});

export const ActionScore = Closed(
  {
    action_id: Type.String(),
    type: Type.String(),
    objectives: Type.Array(ObjectiveScore),
    objective_total: Nullable(Type.Number()),
    execution_risk_factors: Type.Array(Type.String()),
    execution_risk_penalty: Type.Number(),
    final_score: Nullable(Type.Number({ description: 'objective_total − penalty, rounded to 9 decimal places' })),
  },
  { description: "An eligible candidate's score breakdown (null scores: an objective failed)" },
);

const RankingBasis = Type.Union([
  Closed({ by: Type.Literal('score') }),
  Closed({ by: Type.Literal('tie_break'), index: Type.Integer({ minimum: 0 }) }),
  Closed({ by: Type.Literal('action_id') }),
]);

export const RankingDetail = Closed({
  tie_break_keys: Type.Array(Nullable(Type.Union([Type.Number(), Type.String()])), { description: "Each declared tie-break key's value, in declaration order" }),
  ahead_of_next: Nullable(RankingBasis, { description: 'What ordered it ahead of the next one; null for the last' }),
});

export const SelectionBasis = Nullable(Type.Union([RankingBasis, Closed({ by: Type.Literal('only_eligible') })]), {
  description: 'What put the selected action ahead of the runner-up; null without a selection',
});

export const ModelOutcome = Type.Union(
  [
    Closed({ kind: Type.Literal('reply'), text: Type.String(), token_count: Nullable(Type.Integer({ minimum: 0 })) }),
    Closed({ kind: Type.Literal('error'), message: Type.String() }),
    Closed({ kind: Type.Literal('timeout') }),
  ],
  { description: "What the model did, exactly as received: a replay feeds it through the same checks instead of asking again" },
);

export const ValidationCheck = OneOf(['schema_valid', 'invariants_satisfied', 'authority_boundary_intact', 'prohibited_fields_absent']);

export const ValidationFailure = Type.Object(
  {
    check: ValidationCheck,
    id: Type.String({ description: 'The invariant or prohibition id, or the schema keyword' }),
    path: Type.String(),
    message: Type.String(),
    match: Type.Optional(Closed({ excerpt: Type.String(), start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) }, { description: 'For a check that read text: what it found and where, in UTF-16 offsets of the original' })),
  },
  { additionalProperties: false },
);

export const SandboxFault = Closed(
  {
    index: Type.Integer({ minimum: 0, description: "The crossing's place among the cycle's skill crossings" }),
    entry: OneOf(['__adec_skill_render', '__adec_skill_prompt', '__adec_skill_invariants']),
    skill: Type.String(),
    kind: Type.String(),
    message: Type.String(),
  },
  { description: 'A skill crossing that failed for the machine’s reasons (time, memory, a crash): replayed as recorded' },
);

export const SkillOutputMetadata = Type.Object(
  {
    skill_id: Type.String(),
    skill_version: Type.String(),
    generated_at: Type.String({ format: 'date-time' }),
    token_count: Type.Optional(Type.Integer({ minimum: 0 })),
    generation_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false, description: "The skill output envelope's metadata (docs/spec/skill-contract.md §2)" },
);

export const Payload = OpenObject({ description: "The skill's output: fields of its declared output schema" });
export const PayloadHash = Sha256('sha256 of the payload’s JSON text');
export const Duration = Milliseconds;
