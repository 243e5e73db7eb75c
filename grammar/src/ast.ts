/**
 * The typed AST of the world language: what the parser guarantees to the checker.
 *
 * Every node carries the `span` of the source text it came from. The AST is syntax only:
 * names are unresolved, spellings the checker validates (outcomes, severities, aggregation
 * modes, statuses) are kept as written so the checker can report them with "did you mean".
 * A node that the parser had to recover from is still well-formed (required fields present),
 * with `Missing`-kind placeholders where text was absent.
 */
import type { Span } from '@adec/diagnostics';

// ── Leaves ──────────────────────────────────────────────────────────────────

export interface Identifier {
  readonly kind: 'Identifier';
  /** Empty when the parser recovered from a missing name (the error is already reported). */
  readonly name: string;
  readonly span: Span;
}

/**
 * A string literal. `value` has the quotes removed. A backslash is literal (patterns are
 * written as in the SEC documents) except `\"` inside "…" and `\'` inside '…'.
 */
export interface StringLiteral {
  readonly kind: 'StringLiteral';
  readonly value: string;
  readonly span: Span;
}

/**
 * A string with `{expression}` interpolations (`reason`, `prompt`, templates).
 * `parts` alternate text and expressions; `{{` and `}}` are literal braces.
 */
export interface TemplateString {
  readonly kind: 'TemplateString';
  readonly parts: readonly (TemplateText | Expr)[];
  readonly span: Span;
}

export interface TemplateText {
  readonly kind: 'TemplateText';
  readonly text: string;
  readonly span: Span;
}

/**
 * `500ms`, `18h`, `7d`: the value is normalized to milliseconds. In a clause (`timeout`), a
 * duration the parser could not read (missing, or an unknown unit: already reported) has
 * NaN milliseconds; inside an expression it is a `MissingExpr` instead.
 */
export interface DurationLiteral {
  readonly kind: 'DurationLiteral';
  readonly milliseconds: number;
  readonly text: string;
  readonly span: Span;
}

export interface NumberLiteral {
  readonly kind: 'NumberLiteral';
  readonly value: number;
  /** `true` when written without a decimal point or exponent (`26`), i.e. an int literal. */
  readonly isInteger: boolean;
  readonly span: Span;
}

// ── Expressions ─────────────────────────────────────────────────────────────
//
// Precedence, lowest first:
//   1. if c then a else b      IF c THEN b   (no else: implication, as in SEC checks)
//   2. or  (also OR)
//   3. and (also AND)
//   4. not (also NOT)                            prefix
//   5. == != < <= > >= EQUALS in                 non-associative
//      CONTAINS, NOT CONTAINS, CONTAINS_ANY, NOT CONTAINS_ANY, MATCHES, NOT MATCHES
//      IS NULL, IS NOT NULL (postfix), LENGTH <op> e
//   6. ??                                        right-associative
//   7. + -
//   8. * / %
//   9. - (unary)
//  10. postfix: .field   f(args)
//  11. primary: literal, name, [list], (expr)

export type Expr =
  | NumberLiteral
  | StringLiteral
  | DurationLiteral
  | BooleanLiteral
  | NullLiteral
  | NameExpr
  | MemberExpr
  | CallExpr
  | ListExpr
  | UnaryExpr
  | BinaryExpr
  | NullCheckExpr
  | LengthExpr
  | ConditionalExpr
  | MissingExpr;

export interface BooleanLiteral {
  readonly kind: 'BooleanLiteral';
  readonly value: boolean;
  readonly span: Span;
}

export interface NullLiteral {
  readonly kind: 'NullLiteral';
  readonly span: Span;
}

/** A bare name: a context attribute, signal, state value, or a root such as `payload`. */
export interface NameExpr {
  readonly kind: 'NameExpr';
  readonly name: string;
  readonly span: Span;
}

/** `object.property`, e.g. `payload.rationale`, `action.intensity`. */
export interface MemberExpr {
  readonly kind: 'MemberExpr';
  readonly object: Expr;
  readonly property: Identifier;
  readonly span: Span;
}

/** A call of a built-in function; the checker resolves the name against the compiler's registry (packages/compiler/src/model/builtins.ts). */
export interface CallExpr {
  readonly kind: 'CallExpr';
  readonly callee: Identifier;
  readonly args: readonly Expr[];
  readonly span: Span;
}

export interface ListExpr {
  readonly kind: 'ListExpr';
  readonly items: readonly Expr[];
  readonly span: Span;
}

export type UnaryOperator = 'not' | '-';

export interface UnaryExpr {
  readonly kind: 'UnaryExpr';
  readonly operator: UnaryOperator;
  readonly operand: Expr;
  readonly span: Span;
}

/**
 * Binary operators as the author wrote them. `EQUALS` is kept distinct from `==` (same
 * meaning) so messages can quote the author's spelling; `and`/`AND` both become `and`.
 */
export type BinaryOperator =
  | 'or'
  | 'and'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'EQUALS'
  | 'in'
  | 'CONTAINS'
  | 'NOT CONTAINS'
  | 'CONTAINS_ANY'
  | 'NOT CONTAINS_ANY'
  | 'MATCHES'
  | 'NOT MATCHES'
  | '??'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%';

export interface BinaryExpr {
  readonly kind: 'BinaryExpr';
  readonly operator: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
  /** The span of the operator token(s) alone, e.g. `NOT CONTAINS`. */
  readonly operatorSpan: Span;
  readonly span: Span;
}

/** `x IS NULL` / `x IS NOT NULL`. */
export interface NullCheckExpr {
  readonly kind: 'NullCheckExpr';
  readonly operand: Expr;
  readonly negated: boolean;
  readonly span: Span;
}

export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** SEC `payload.rationale LENGTH < 200`. */
export interface LengthExpr {
  readonly kind: 'LengthExpr';
  readonly operand: Expr;
  readonly operator: ComparisonOperator;
  readonly limit: Expr;
  readonly span: Span;
}

/** `if c then a else b`; without `else` (SEC `IF c THEN b`) it means `not c or b`. */
export interface ConditionalExpr {
  readonly kind: 'ConditionalExpr';
  readonly condition: Expr;
  readonly consequent: Expr;
  readonly alternate?: Expr;
  readonly span: Span;
}

/**
 * Placeholder where the parser recovered from a missing expression, or for a part nested
 * deeper than the nesting limit (ADEC1010). Never type-checked.
 */
export interface MissingExpr {
  readonly kind: 'MissingExpr';
  /**
   * For a part nested too deep: the names written in it. The checker counts them as read,
   * so that no attribute is reported unused because of the cut.
   */
  readonly names?: readonly string[];
  readonly span: Span;
}

// ── Types (syntax) ──────────────────────────────────────────────────────────

export type TypeExpr = NamedType | EnumType | ListType | RecordType | OptionalType;

/** The names of the scalar types: a `NamedType` names one of them. */
export const SCALAR_TYPE_NAMES = ['bool', 'int', 'float', 'string', 'timestamp', 'duration'] as const;

/**
 * `bool`, `int`, `float`, `string`, `timestamp`, `duration`, with an optional range:
 * `int(0..120)`, `float(0..1)`, `string(20..200)` (length), `string(..100)`.
 * The name is an identifier so an unknown type (`integer`) can get "did you mean".
 */
export interface NamedType {
  readonly kind: 'NamedType';
  readonly name: Identifier;
  readonly range?: RangeSpec;
  readonly span: Span;
}

export interface RangeSpec {
  readonly min?: NumberLiteral;
  readonly max?: NumberLiteral;
  readonly span: Span;
}

/** `"child" | "spouse" | "domestic_partner"`. */
export interface EnumType {
  readonly kind: 'EnumType';
  readonly members: readonly StringLiteral[];
  readonly span: Span;
}

/** `list<T>`. */
export interface ListType {
  readonly kind: 'ListType';
  readonly element: TypeExpr;
  readonly span: Span;
}

/** `{ tone: "supportive" | "calm", highlight_recovery: bool }`. */
export interface RecordType {
  readonly kind: 'RecordType';
  readonly fields: readonly FieldDecl[];
  readonly span: Span;
}

/** `T?`: the value may be absent (null). */
export interface OptionalType {
  readonly kind: 'OptionalType';
  readonly inner: TypeExpr;
  readonly span: Span;
}

/** `name: T` inside a record type, `output { … }`, `signals { … }`, `action_type { … }`. */
export interface FieldDecl {
  readonly kind: 'FieldDecl';
  readonly name: Identifier;
  readonly type: TypeExpr;
  /** `= value` where the grammar allows a default (signals, context). */
  readonly defaultValue?: Expr;
  readonly span: Span;
}

// ── Declarations ────────────────────────────────────────────────────────────

/** One parsed `.adec` file. A world is the set of files in its directory. */
export interface SourceFile {
  readonly kind: 'SourceFile';
  /** Path as diagnostics print it (relative to the world directory's parent or cwd). */
  readonly path: string;
  readonly declarations: readonly Declaration[];
  readonly span: Span;
}

export type Declaration =
  | WorldHeader
  | ContextBlock
  | ActionDecl
  | SkillDecl
  | ScenarioDecl
  | TestDecl;

/**
 * ```
 * world {
 *   org     "acme"
 *   domain  "hr.benefits"
 *   version "1.4.0"
 *   name    "benefits"        // optional: the world id, defaults to the domain
 *   timeout 5ms               // optional: default per-predicate timeout
 * }
 * ```
 * Each setting is optional in the syntax; the checker reports missing or repeated ones.
 */
export interface WorldHeader {
  readonly kind: 'WorldHeader';
  readonly settings: readonly WorldSetting[];
  readonly span: Span;
}

export interface WorldSetting {
  readonly kind: 'WorldSetting';
  readonly key: Identifier; // org | domain | version | name | timeout
  readonly value: StringLiteral | DurationLiteral;
  readonly span: Span;
}

/**
 * ```
 * context {
 *   supplied relationship: "child" | "spouse"
 *   supplied documents:    list<string> = []
 *   system   request_time: timestamp
 *   computed over_age:     bool = dependent_age >= 26
 * }
 * ```
 * At top level it is shared by every action; inside an action it adds action-local attributes.
 */
export interface ContextBlock {
  readonly kind: 'ContextBlock';
  readonly attributes: readonly ContextAttributeDecl[];
  readonly span: Span;
}

export type ContextSource = 'supplied' | 'system' | 'computed';

export interface ContextAttributeDecl {
  readonly kind: 'ContextAttributeDecl';
  readonly source: ContextSource;
  readonly name: Identifier;
  readonly type: TypeExpr;
  /** Default for supplied attributes; the derivation for computed ones. */
  readonly value?: Expr;
  readonly span: Span;
}

/**
 * ```
 * action add_dependent {
 *   aggregate winner_takes_all            // or: vote_of_n 2 · weighted_sum_threshold 0.5
 *   context { … }                         // optional, action-local attributes
 *   rule … { … }
 *   on YELLOW { … }
 * }
 * ```
 */
export interface ActionDecl {
  readonly kind: 'ActionDecl';
  readonly name: Identifier;
  readonly aggregations: readonly AggregationClause[];
  readonly contexts: readonly ContextBlock[];
  readonly rules: readonly RuleDecl[];
  readonly workFrames: readonly WorkFrameTemplateDecl[];
  readonly span: Span;
}

/** `aggregate <mode> [<number>]`; the mode is validated by the checker. */
export interface AggregationClause {
  readonly kind: 'AggregationClause';
  readonly mode: Identifier;
  readonly parameter?: NumberLiteral;
  readonly span: Span;
}

/**
 * ```
 * rule student_extension {
 *   outcome      YELLOW                  // GREEN | GREEN-SKIP | YELLOW | RED
 *   severity     t2                      // t1 | t2 | t3
 *   applies_when relationship == "child"
 *   when         over_age and (full_time_student ?? false)
 *   reason       "Dependent is {dependent_age}; student status needs proof"
 *   suppresses   child_under_26, other_rule
 *   timeout      10ms
 *   weight       0.5                     // weighted_sum_threshold only
 * }
 * ```
 * Clauses may come in any order; the parser keeps every occurrence so the checker can
 * report missing or repeated clauses (ADEC4003 / ADEC4009).
 */
export interface RuleDecl {
  readonly kind: 'RuleDecl';
  readonly id: Identifier;
  readonly clauses: readonly RuleClause[];
  readonly span: Span;
}

export type RuleClause =
  | { readonly kind: 'OutcomeClause'; readonly value: Word; readonly span: Span }
  | { readonly kind: 'SeverityClause'; readonly value: Word; readonly span: Span }
  | { readonly kind: 'AppliesWhenClause'; readonly condition: Expr; readonly span: Span }
  | { readonly kind: 'WhenClause'; readonly condition: Expr; readonly span: Span }
  | { readonly kind: 'ReasonClause'; readonly template: TemplateString; readonly span: Span }
  | { readonly kind: 'SuppressesClause'; readonly rules: readonly Identifier[]; readonly span: Span }
  | { readonly kind: 'TimeoutClause'; readonly duration: DurationLiteral; readonly span: Span }
  | { readonly kind: 'WeightClause'; readonly weight: NumberLiteral; readonly span: Span };

/**
 * A spelling the checker validates against a closed set (outcomes, severities, statuses):
 * `GREEN-SKIP` lexes as one token, anything else (`green`, `GREEN_SKIP`, `"RED"`) is kept
 * as written so the checker can say "invalid outcome `green`, did you mean GREEN?".
 */
export interface Word {
  readonly kind: 'Word';
  readonly text: string;
  readonly span: Span;
}

/**
 * ```
 * on YELLOW {
 *   mode              "review"
 *   next_action       "gather_evidence_and_retry"
 *   allowed_actions   ["request_documents"]
 *   forbidden_actions ["add_dependent"]
 *   required_output   ["enrollment_verification"]
 *   next_human_owner  "benefits-review"
 * }
 * ```
 */
export interface WorkFrameTemplateDecl {
  readonly kind: 'WorkFrameTemplateDecl';
  readonly status: Word;
  readonly fields: readonly WorkFrameFieldDecl[];
  readonly span: Span;
}

export interface WorkFrameFieldDecl {
  readonly kind: 'WorkFrameFieldDecl';
  readonly name: Identifier;
  readonly value: StringLiteral | StringListLiteral;
  readonly span: Span;
}

export interface StringListLiteral {
  readonly kind: 'StringListLiteral';
  readonly items: readonly StringLiteral[];
  readonly span: Span;
}

/**
 * ```
 * skill fitness_session_rationale {
 *   version     "1.0.0"
 *   type        llm                       // llm | deterministic
 *   description "…"
 *   prompt      "Write … for {action_metadata.session_name}."
 *   timeout     300ms hard_limit 500ms
 *   fallback    decision_rationale_template
 *   action_metadata { session_name: string, session_type: string }   // what the skill reads
 *   user_state      { engagement_level: float }
 *   output { rationale: string(20..200), encouragement: string(..100)? }
 *   invariant "FIT-001" "Rationale must mention the session": payload.rationale CONTAINS …
 *   prohibit  "FIT-PROHIB-001" "(?i)(injury|pain)" "Medical safety"
 *   template default { rationale: "We selected {action_metadata.session_name}." }
 *   template high_engagement when user_state.engagement_level > 0.7 { rationale: "…" }
 * }
 * ```
 */
export interface SkillDecl {
  readonly kind: 'SkillDecl';
  readonly id: Identifier;
  readonly members: readonly SkillMember[];
  readonly span: Span;
}

export type SkillMember =
  | { readonly kind: 'SkillVersion'; readonly version: StringLiteral; readonly span: Span }
  | { readonly kind: 'SkillType'; readonly value: Word; readonly span: Span }
  | { readonly kind: 'SkillDescription'; readonly text: StringLiteral; readonly span: Span }
  | { readonly kind: 'SkillPrompt'; readonly template: TemplateString; readonly span: Span }
  | {
      readonly kind: 'SkillTimeout';
      readonly timeout: DurationLiteral;
      readonly hardLimit?: DurationLiteral;
      readonly span: Span;
    }
  | { readonly kind: 'SkillFallback'; readonly skill: Identifier; readonly span: Span }
  | { readonly kind: 'SkillActionMetadata'; readonly fields: readonly FieldDecl[]; readonly span: Span }
  | { readonly kind: 'SkillUserState'; readonly fields: readonly FieldDecl[]; readonly span: Span }
  | { readonly kind: 'SkillOutput'; readonly fields: readonly FieldDecl[]; readonly span: Span }
  | InvariantDecl
  | ProhibitDecl
  | SkillTemplateDecl;

export interface InvariantDecl {
  readonly kind: 'InvariantDecl';
  readonly id: StringLiteral;
  readonly description: StringLiteral;
  readonly check: Expr;
  /** The check exactly as written (audit records and error messages quote it). */
  readonly source: string;
  readonly span: Span;
}

export interface ProhibitDecl {
  readonly kind: 'ProhibitDecl';
  readonly id: StringLiteral;
  readonly pattern: StringLiteral;
  readonly reason: StringLiteral;
  readonly span: Span;
}

export interface SkillTemplateDecl {
  readonly kind: 'SkillTemplateDecl';
  readonly name: Identifier;
  readonly when?: Expr;
  readonly fields: readonly { readonly name: Identifier; readonly template: TemplateString; readonly span: Span }[];
  readonly span: Span;
}

/**
 * ```
 * scenario fitness_daily_session {
 *   version "1.0.0"
 *   signals { sessions_last_7d: int = 0 }
 *   state   { engagement_level: float(0..1) = clamp(sessions_last_7d / 5, 0, 1) }
 *   action_type workout_session { intensity: "low" | "high", session_name: string, skill fitness_session_rationale }
 *   action_type rest_day { skill decision_rationale_template }
 *   guardrail "GR-REST-MIN" "At least 1 rest day per 7-day window" { when rest_days_last_7d < 1  force rest_day }
 *   guardrail "GR-INTENSITY-CAP" "…" { when consecutive_high_intensity >= 2  block action.intensity == "high" }
 *   guardrail "GR-DURATION" "…" { when engagement_level < 0.2  cap action.duration_minutes 30 }
 *   objective completion weight 0.6 = if action.intensity == "high" then 1 - engagement_level else 0.8
 *   execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }
 *   tie_break action.duration_minutes asc, action_id asc
 *   default_mode skill_enhanced           // skill_enhanced | deterministic_only
 * }
 * ```
 */
export interface ScenarioDecl {
  readonly kind: 'ScenarioDecl';
  readonly id: Identifier;
  readonly members: readonly ScenarioMember[];
  readonly span: Span;
}

export type ScenarioMember =
  | { readonly kind: 'ScenarioVersion'; readonly version: StringLiteral; readonly span: Span }
  | { readonly kind: 'SignalsBlock'; readonly fields: readonly FieldDecl[]; readonly span: Span }
  | { readonly kind: 'StateBlock'; readonly fields: readonly FieldDecl[]; readonly span: Span }
  | ActionTypeDecl
  | GuardrailDecl
  | ObjectiveDecl
  | ExecutionRiskDecl
  | { readonly kind: 'TieBreakDecl'; readonly keys: readonly TieBreakKey[]; readonly span: Span }
  | { readonly kind: 'DefaultModeDecl'; readonly mode: Word; readonly span: Span };

export interface ActionTypeDecl {
  readonly kind: 'ActionTypeDecl';
  readonly name: Identifier;
  readonly fields: readonly FieldDecl[];
  readonly skill?: Identifier;
  readonly span: Span;
}

export interface GuardrailDecl {
  readonly kind: 'GuardrailDecl';
  readonly id: StringLiteral;
  readonly description: StringLiteral;
  readonly when: Expr;
  readonly effect: GuardrailEffect;
  readonly span: Span;
}

export type GuardrailEffect =
  | { readonly kind: 'BlockEffect'; readonly predicate: Expr; readonly span: Span }
  | { readonly kind: 'ForceEffect'; readonly actionType: Identifier; readonly span: Span }
  | { readonly kind: 'CapEffect'; readonly field: Expr; readonly limit: Expr; readonly span: Span };

export interface ObjectiveDecl {
  readonly kind: 'ObjectiveDecl';
  readonly name: Identifier;
  readonly weight: NumberLiteral;
  readonly score: Expr;
  readonly span: Span;
}

export interface ExecutionRiskDecl {
  readonly kind: 'ExecutionRiskDecl';
  readonly weight: NumberLiteral;
  readonly factors: readonly { readonly name: Identifier; readonly value: NumberLiteral; readonly span: Span }[];
  readonly span: Span;
}

export interface TieBreakKey {
  readonly kind: 'TieBreakKey';
  readonly key: Expr;
  readonly direction: 'asc' | 'desc';
  readonly span: Span;
}

/**
 * Adjudication test:
 * ```
 * test "a 27-year-old non-student child is blocked" {
 *   action  add_dependent
 *   context { relationship: "child", dependent_age: 27 }
 *   system  { request_time: "2026-01-01T00:00:00Z" }     // optional
 *   expect  RED by ineligible_over_age                    // `by <rule>` optional
 *   expect  reason "Children aged 27 are not eligible"    // optional: or a basis, `expect reason NO_RULE_MATCH`
 *   expect  work_frame { next_human_owner: "benefits-escalations" }   // optional: these fields only
 *   expect  missing_evidence [documents]                  // optional: the attributes asked for
 * }
 * ```
 * Selection test:
 * ```
 * test "rest is forced after a week without rest" {
 *   scenario fitness_daily_session
 *   signals  { rest_days_last_7d: 0 }
 *   actions  [ { action_id: "w1", type: "workout_session", intensity: "high", … }, { action_id: "r1", type: "rest_day" } ]
 *   expect   selected "r1"                                 // or: expect NO_ELIGIBLE_ACTIONS
 *   model_reply { note: "…" }                              // optional: an llm skill's model answers this
 *   expect   skill output { note CONTAINS "rest" }         // optional: the payload's fields, `:` exactly
 *   expect   skill validation passed                       // optional: or `failed "INV-005", …`
 * }
 * ```
 */
export interface TestDecl {
  readonly kind: 'TestDecl';
  readonly name: StringLiteral;
  readonly members: readonly TestMember[];
  readonly span: Span;
}

export type TestMember =
  | { readonly kind: 'TestAction'; readonly action: Identifier; readonly span: Span }
  | { readonly kind: 'TestScenario'; readonly scenario: Identifier; readonly span: Span }
  | { readonly kind: 'TestContext'; readonly value: ValueRecord; readonly span: Span }
  | { readonly kind: 'TestSystem'; readonly value: ValueRecord; readonly span: Span }
  | { readonly kind: 'TestSignals'; readonly value: ValueRecord; readonly span: Span }
  | { readonly kind: 'TestActions'; readonly value: ValueList; readonly span: Span }
  /** `model_reply { … }`: the JSON object the model answers an llm skill with, in place of a model. */
  | { readonly kind: 'TestModelReply'; readonly value: ValueRecord; readonly span: Span }
  | {
      readonly kind: 'TestExpectStatus';
      readonly status: Word;
      readonly rule?: Identifier;
      readonly span: Span;
    }
  /** `expect reason "text"` (the winning rule's reason) or `expect reason CODE` (the decision's basis). */
  | { readonly kind: 'TestExpectReason'; readonly reason: StringLiteral | Identifier; readonly span: Span }
  | { readonly kind: 'TestExpectWorkFrame'; readonly value: ValueRecord; readonly span: Span }
  | { readonly kind: 'TestExpectMissingEvidence'; readonly attributes: readonly Identifier[]; readonly span: Span }
  | { readonly kind: 'TestExpectSelected'; readonly actionId: StringLiteral; readonly span: Span }
  | { readonly kind: 'TestExpectNoEligible'; readonly span: Span }
  | { readonly kind: 'TestExpectSkillOutput'; readonly fields: readonly SkillOutputExpectation[]; readonly span: Span }
  /** `expect skill validation passed`, or `failed` with the ids of checks that must be among the failures. */
  | { readonly kind: 'TestExpectSkillValidation'; readonly passed: boolean; readonly checks: readonly StringLiteral[]; readonly span: Span };

/** One field of `expect skill output { … }`: `note: "…"` (exactly) or `note CONTAINS "…"`. */
export interface SkillOutputExpectation {
  readonly key: Identifier;
  readonly match: 'equals' | 'contains';
  readonly value: Value;
  readonly span: Span;
}

/** JSON-like data in tests: `{ a: 1, b: ["x"], c: null }`. Keys are identifiers. */
export type Value = ValueScalar | ValueList | ValueRecord;

export interface ValueScalar {
  readonly kind: 'ValueScalar';
  readonly value: string | number | boolean | null;
  /**
   * Set in place of a value nested deeper than the nesting limit (already reported,
   * ADEC1010; `value` is then null): the checker skips it.
   */
  readonly tooDeep?: true;
  readonly span: Span;
}

export interface ValueList {
  readonly kind: 'ValueList';
  readonly items: readonly Value[];
  readonly span: Span;
}

export interface ValueRecord {
  readonly kind: 'ValueRecord';
  readonly entries: readonly { readonly key: Identifier; readonly value: Value; readonly span: Span }[];
  readonly span: Span;
}
