/**
 * The static tables a generated module exports, as the host copies them out of the isolate
 * once at load (`__adec_metadata`, packages/runtime/src/sandbox/isolate-prelude.ts) and
 * validates them (packages/runtime/src/module/module-metadata.ts). The generated module
 * declares the same shapes in TypeScript (packages/compiler/src/generate/module-types.ts).
 */
import type { RuleOutcome, SeverityTier, AggregationSpec } from './rule-classes.js';
import type { WorkFrameTemplates } from './work-frame-template.js';

/** Where a value holds durations: itself (`true`), its list's elements, or some of its record's fields. */
export type DurationShapeEntry = true | { readonly items: DurationShapeEntry } | { readonly fields: { readonly [name: string]: DurationShapeEntry } };

/** One action of the module's `_ACTIONS`. */
export interface ActionEntry {
  /** Rule ids in evaluation order: t1, t2, t3, declaration order within a tier. */
  readonly rules: readonly string[];
  readonly aggregation: AggregationSpec;
  readonly work_frames?: WorkFrameTemplates;
  /** Computed attributes, in derivation order. */
  readonly computed?: readonly string[];
  readonly supplied?: readonly string[];
  readonly system?: readonly string[];
  /** Attributes the rules and derivations read: all that crosses into the sandbox (absent in modules built before it was listed). */
  readonly reads?: readonly string[];
  /** The attributes that hold durations (absent when none does, and in modules built before it was listed). */
  readonly durations?: { readonly [attribute: string]: DurationShapeEntry };
  readonly predicate_timeout_ms: number;
  readonly rule_timeout_ms?: { readonly [rule: string]: number };
}

/** ABI 1 modules may not name their world id: it is then the domain. */
export interface ModuleWorld {
  readonly org: string;
  readonly domain: string;
  readonly world?: string;
  readonly version: string;
}

/**
 * What `__adec_metadata` returns: the module's `_ABI_VERSION`, `_WORLD`, `_ACTIONS`,
 * `_RULE_OUTCOME`, `_RULE_SEVERITY`, `_RULE_SUPPRESSES`, `_RULE_READS` and the ids of
 * `_RULE_FUNCTIONS`. An ABI 1 module arrives already in this shape: the legacy shim converts
 * it in the isolate first.
 */
export interface ModuleMetadataJson {
  readonly abi_version: 1 | 2;
  readonly world: ModuleWorld;
  readonly actions: { readonly [action: string]: ActionEntry };
  readonly outcome: { readonly [rule: string]: RuleOutcome };
  readonly severity: { readonly [rule: string]: SeverityTier };
  readonly suppresses: { readonly [rule: string]: readonly string[] };
  readonly reads: { readonly [rule: string]: readonly string[] };
  /** The ids of `_RULE_FUNCTIONS`. */
  readonly predicates: readonly string[];
}
