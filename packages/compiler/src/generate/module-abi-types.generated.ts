// Generated from packages/abi/src/module-declarations.ts by packages/compiler/test/generate/module-abi-types.test.ts: do not edit.
// Regenerate with `npm run generate:abi-types`
// (the test fails when this file is out of date).

/** The ABI's own types, as every generated module declares them, before its own. */
export const MODULE_ABI_TYPES = `/** The status a rule contributes when it matches (docs/spec/adjudication.md section 3). */
export type RuleOutcome = "GREEN" | "GREEN-SKIP" | "YELLOW" | "RED";

/** Orders matched rules; a matched t1 wins outright (docs/spec/adjudication.md section 4). */
export type SeverityTier = "t1" | "t2" | "t3";

/** What a predicate reports: match-only; the outcome is static metadata (\`_RULE_OUTCOME\`), the attributes it read are listed in \`_RULE_READS\`. */
export interface RuleResult {
  readonly matched: boolean;
  /** Rendered from the rule's template, only when matched. */
  readonly reason?: string;
}

/** A rule predicate over its action's context. */
export type RulePredicate = (ctx: never) => RuleResult;

/** An \`applies_when\` filter over its action's context. */
export type RuleFilter = (ctx: never) => boolean;

/** The derivation of a computed context attribute. */
export type Derivation = (ctx: never) => unknown;

/** The work_frame fields an action sets for one status; the runtime fills in defaults. */
export interface WorkFrameTemplate {
  readonly mode?: string;
  readonly next_action?: string;
  readonly allowed_actions?: readonly string[];
  readonly forbidden_actions?: readonly string[];
  readonly required_output?: readonly string[];
  readonly next_human_owner?: string;
}

/** Where a value holds durations: itself, its list's elements, or some of its record's fields. */
export type DurationShape = true | { readonly items: DurationShape; } | { readonly fields: Readonly<Record<string, DurationShape>>; };

/** One action of \`_ACTIONS\`. */
export interface ActionEntry {
  /** Rule ids in evaluation order: t1, t2, t3, declaration order within a tier. */
  readonly rules: readonly string[];
  readonly aggregation: { readonly mode: "winner_takes_all" | "vote_of_n" | "weighted_sum_threshold"; readonly n?: number; readonly threshold?: number; readonly weights?: Readonly<Record<string, number>>; };
  readonly work_frames: Readonly<Partial<Record<RuleOutcome, WorkFrameTemplate>>>;
  /** Computed attributes, in derivation order. */
  readonly computed: readonly string[];
  readonly supplied: readonly string[];
  readonly system: readonly string[];
  /** Attributes the rules and derivations read: all that crosses into the sandbox. */
  readonly reads: readonly string[];
  /** The attributes that hold durations, which traces show as ISO 8601 durations; absent when none does. */
  readonly durations?: Readonly<Record<string, DurationShape>>;
  readonly predicate_timeout_ms: number;
  readonly rule_timeout_ms: Readonly<Record<string, number>>;
}`;

/** The names they declare, which no type of a world may take. */
export const MODULE_ABI_TYPE_NAMES: readonly string[] = ["RuleOutcome","SeverityTier","RuleResult","RulePredicate","RuleFilter","Derivation","WorkFrameTemplate","DurationShape","ActionEntry"];
