/**
 * The checked world: the single data model the checker hands to codegen and the manifest.
 * It is produced only when checking found no errors, so every name is resolved, every
 * expression typed, and every id unique.
 */
import { DECISION_BASES, RULE_OUTCOMES, SEVERITY_TIERS, type DecisionBasis, type JsonValue, type RuleOutcome, type SeverityTier, type WorkFrameTemplate, type WorldIdentity } from '@adec/abi';
import type { Span } from '@adec/diagnostics';
import type { CheckedExpr, CheckedTemplate } from './expr.js';
import type { RecordField, Type } from './types.js';

// The shapes the compiler hands to the runtime are @adec/abi's.
export { DECISION_BASES, RULE_OUTCOMES, SEVERITY_TIERS, type JsonValue, type RuleOutcome, type SeverityTier, type WorkFrameTemplate, type WorldIdentity };

/** A reason code a test may expect with `expect reason CODE`: how the status was reached. */
export type DecisionBasisCode = DecisionBasis;

export interface CheckedWorld {
  readonly header: WorldIdentity;
  /** Default per-predicate timeout in ms (world `timeout`, else the compiler default). */
  readonly predicateTimeoutMs: number;
  readonly actions: readonly CheckedAction[];
  readonly skills: readonly CheckedSkill[];
  readonly scenarios: readonly CheckedScenario[];
  readonly tests: readonly CheckedTest[];
}

export type ContextSource = 'supplied' | 'system' | 'computed';

export interface ContextAttribute {
  readonly name: string;
  readonly source: ContextSource;
  readonly type: Type;
  /** Default for an absent supplied value (a JSON value: timestamps as ISO text). */
  readonly defaultValue?: JsonValue;
  /** Derivation of a computed attribute. */
  readonly derivation?: CheckedExpr;
  /** The attributes a derivation reads directly, sorted. */
  readonly reads?: readonly string[];
  readonly span: Span;
}

export interface CheckedAction {
  readonly name: string;
  /**
   * Every attribute visible to the action's rules: the shared world context plus the
   * action's own, with computed attributes in dependency order (safe to derive in order).
   */
  readonly context: readonly ContextAttribute[];
  readonly aggregation: Aggregation;
  /** Rules in declaration order. */
  readonly rules: readonly CheckedRule[];
  readonly workFrames: Readonly<Partial<Record<RuleOutcome, WorkFrameTemplate>>>;
  readonly span: Span;
}

export type Aggregation =
  | { readonly mode: 'winner_takes_all' }
  /** The most restrictive outcome backed by at least `n` matched T2/T3 rules wins. */
  | { readonly mode: 'vote_of_n'; readonly n: number }
  /** Weighted T2/T3 votes; restrictive outcomes win once their weight reaches `threshold`. */
  | { readonly mode: 'weighted_sum_threshold'; readonly threshold: number };

export interface CheckedRule {
  readonly id: string;
  readonly action: string;
  readonly outcome: RuleOutcome;
  readonly severity: SeverityTier;
  readonly appliesWhen?: CheckedExpr;
  readonly when: CheckedExpr;
  readonly reason?: CheckedTemplate;
  /** Ids of rules of the same action this rule removes from the matched set. Never T1. */
  readonly suppresses: readonly string[];
  readonly timeoutMs?: number;
  /** Vote weight for weighted_sum_threshold (default 1). */
  readonly weight?: number;
  /** Context attribute names the rule reads, sorted: recorded in its trace. */
  readonly reads: readonly string[];
  readonly span: Span;
}

export interface CheckedSkill {
  readonly id: string;
  readonly version: string;
  readonly type: 'llm' | 'deterministic';
  readonly description?: string;
  readonly prompt?: CheckedTemplate;
  readonly timeoutMs: number;
  readonly hardLimitMs: number;
  readonly fallback?: string;
  readonly actionMetadata: readonly RecordField[];
  readonly userState: readonly RecordField[];
  readonly output: readonly RecordField[];
  readonly invariants: readonly CheckedInvariant[];
  readonly prohibitions: readonly CheckedProhibition[];
  readonly templates: readonly CheckedSkillTemplate[];
  readonly span: Span;
}

export interface CheckedInvariant {
  readonly id: string;
  readonly description: string;
  readonly check: CheckedExpr;
  /** The check as written, for audit records and error messages. */
  readonly source: string;
  readonly span: Span;
}

export interface CheckedProhibition {
  readonly id: string;
  /** The pattern as written in the SEC (`(?i)…`). */
  readonly pattern: string;
  /** The equivalent JavaScript pattern and flags. */
  readonly source: string;
  readonly flags: string;
  readonly reason: string;
  readonly span: Span;
}

export interface CheckedSkillTemplate {
  readonly name: string;
  readonly when?: CheckedExpr;
  readonly fields: readonly { readonly name: string; readonly template: CheckedTemplate }[];
}

export interface CheckedScenario {
  readonly id: string;
  readonly version: string;
  readonly signals: readonly { readonly name: string; readonly type: Type; readonly defaultValue?: JsonValue }[];
  /** Derived state, in dependency order. */
  readonly state: readonly { readonly name: string; readonly type: Type; readonly derivation: CheckedExpr }[];
  readonly actionTypes: readonly { readonly name: string; readonly fields: readonly RecordField[]; readonly skill?: string }[];
  readonly guardrails: readonly CheckedGuardrail[];
  readonly objectives: readonly { readonly name: string; readonly weight: number; readonly score: CheckedExpr }[];
  readonly executionRisk?: { readonly weight: number; readonly factors: readonly { readonly name: string; readonly value: number }[] };
  readonly tieBreaks: readonly { readonly key: CheckedExpr; readonly direction: 'asc' | 'desc' }[];
  readonly defaultMode: 'skill_enhanced' | 'deterministic_only';
  readonly span: Span;
}

export interface CheckedGuardrail {
  readonly id: string;
  readonly description: string;
  readonly when: CheckedExpr;
  readonly effect:
    | { readonly kind: 'block'; readonly predicate: CheckedExpr }
    | { readonly kind: 'force'; readonly actionType: string }
    | { readonly kind: 'cap'; readonly field: string; readonly limit: CheckedExpr };
}

export type CheckedTest =
  | {
      readonly kind: 'adjudication';
      readonly name: string;
      readonly action: string;
      readonly context: { readonly [key: string]: JsonValue };
      readonly system: { readonly [key: string]: JsonValue };
      readonly expectStatus: RuleOutcome;
      readonly expectRule?: string;
      /** `expect reason "…"`: the winning rule's reason, exactly. */
      readonly expectReason?: string;
      /** `expect reason CODE`: the decision's basis. */
      readonly expectBasis?: DecisionBasisCode;
      /** `expect work_frame { … }`: these work_frame fields, each exactly. */
      readonly expectWorkFrame?: { readonly [field: string]: JsonValue };
      /** `expect missing_evidence [...]`: the attributes the work_frame asks for, in any order. */
      readonly expectMissingEvidence?: readonly string[];
      readonly span: Span;
    }
  | {
      readonly kind: 'selection';
      readonly name: string;
      readonly scenario: string;
      readonly signals: { readonly [key: string]: JsonValue };
      readonly actions: readonly { readonly [key: string]: JsonValue }[];
      readonly expect: { readonly selected: string } | { readonly noEligibleActions: true };
      /** `model_reply { … }`: what the model answers the selected action's llm skill; without it, no model is asked. */
      readonly modelReply?: { readonly [key: string]: JsonValue };
      /** `expect skill …`: what the selected action's skill must render. */
      readonly expectSkill?: SkillExpectation;
      readonly span: Span;
    };

/** What a selection test expects of the skill that describes the selected action. */
export interface SkillExpectation {
  /** The skill the selected action's type names (an llm skill's payload may be its fallback's). */
  readonly skill: string;
  /** `expect skill output { … }`: fields of the payload the response carries; the others are not compared. */
  readonly output?: readonly SkillOutputCheck[];
  /** `expect skill validation …`: stage 7 on the skill's own output; `failed` lists checks that must be among the failures. */
  readonly validation?: { readonly passed: true } | { readonly passed: false; readonly checks: readonly string[] };
}

export interface SkillOutputCheck {
  readonly field: string;
  /** `equals`: the field's value exactly (`note: "…"`); `contains`: its text holds this (`note CONTAINS "…"`). */
  readonly match: 'equals' | 'contains';
  readonly value: JsonValue;
}
