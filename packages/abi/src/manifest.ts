/**
 * `manifest.json` of the current module ABI: what a runtime knows about a bundle without
 * running it, and what `adec sign` signs. It binds the module hash, so a signature over the
 * manifest covers the bundle. The compiler writes it (packages/compiler/src/manifest); the
 * runtime reads it through `readManifest`, which also reads the older versions.
 */
import { checkInteger, checkObject, checkString, checkStrings, listOf, mapOf, matching, oneOf, optional, required, shape, type Check, type JsonObject } from './checks.js';
import { checkAggregationSpec, checkRuleOutcome, checkSeverityTier, type AggregationSpec, type RuleOutcome, type SeverityTier } from './rule-classes.js';
import { checkObjectValueSchema, type ObjectValueSchema } from './value-schema.js';
import { checkWorldIdentity, type WorldIdentity } from './world-identity.js';

/** The module ABI the compiler builds (docs/spec/adjudication.md §3, §4). */
export const ABI_VERSION = 2;

export interface Manifest {
  readonly abi_version: typeof ABI_VERSION;
  readonly world: WorldIdentity;
  /** `sha256:<hex>` of the bundle bytes. */
  readonly module_hash: string;
  /** `sha256:<hex>` of the sources. */
  readonly source_hash: string;
  readonly compiler: ManifestCompiler;
  /** Source files relative to the world directory, in build order. */
  readonly sources: readonly string[];
  /** Every rule, per action in evaluation order. */
  readonly rules: readonly ManifestRule[];
  readonly actions: { readonly [action: string]: ManifestAction };
  readonly skills: readonly ManifestSkill[];
  readonly scenarios: readonly ManifestScenario[];
  /**
   * Each skill's contract document (@adec/contracts `SkillContractDocument`), in the order of
   * `skills`: signed with the manifest, so a host or an auditor can trust what it reads there.
   * Absent in manifests built by compilers older than the document.
   */
  readonly skill_contracts?: readonly JsonObject[];
}

export interface ManifestCompiler {
  readonly name: 'adec';
  readonly version: string;
}

export interface ManifestRule {
  readonly id: string;
  readonly action: string;
  readonly outcome: RuleOutcome;
  readonly severity: SeverityTier;
  readonly span: ManifestSpan;
}

/** Where a rule is written: 1-based lines and columns, the end exclusive. */
export interface ManifestSpan {
  /** Relative to the world directory: a manifest holds no absolute path. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface ManifestAction {
  readonly aggregation: AggregationSpec;
  readonly rule_count: number;
  /** What a `/decide` request's `context` must look like: the supplied attributes only. */
  readonly context_schema: ObjectValueSchema;
}

export interface ManifestSkill {
  readonly id: string;
  readonly version: string;
  readonly type: 'llm' | 'deterministic';
}

export interface ManifestScenario {
  readonly id: string;
  readonly version: string;
}

/** `sha256:` and 64 lowercase hex digits. */
export const checkContentHash: Check<string> = matching(/^sha256:[0-9a-f]{64}$/, '"sha256:" and 64 lowercase hex digits');

export const checkManifestCompiler: Check<ManifestCompiler> = shape((object, path, problems) => {
  required(object, 'name', path, problems, oneOf(['adec']));
  required(object, 'version', path, problems, checkString);
});

const checkPosition = checkInteger(1);

const checkManifestSpan: Check<ManifestSpan> = shape((object, path, problems) => {
  required(object, 'file', path, problems, checkString);
  for (const key of ['line', 'column', 'endLine', 'endColumn']) required(object, key, path, problems, checkPosition);
});

const checkManifestRule: Check<ManifestRule> = shape((object, path, problems) => {
  required(object, 'id', path, problems, checkString);
  required(object, 'action', path, problems, checkString);
  required(object, 'outcome', path, problems, checkRuleOutcome);
  required(object, 'severity', path, problems, checkSeverityTier);
  required(object, 'span', path, problems, checkManifestSpan);
});

const checkManifestAction: Check<ManifestAction> = shape((object, path, problems) => {
  required(object, 'aggregation', path, problems, checkAggregationSpec);
  required(object, 'rule_count', path, problems, checkInteger(0));
  required(object, 'context_schema', path, problems, checkObjectValueSchema);
});

const checkManifestSkill: Check<ManifestSkill> = shape((object, path, problems) => {
  required(object, 'id', path, problems, checkString);
  required(object, 'version', path, problems, checkString);
  required(object, 'type', path, problems, oneOf(['llm', 'deterministic']));
});

const checkManifestScenario: Check<ManifestScenario> = shape((object, path, problems) => {
  required(object, 'id', path, problems, checkString);
  required(object, 'version', path, problems, checkString);
});

/** A manifest of the current ABI; fields it does not know are left alone, as older runtimes left them. */
export const checkManifest: Check<Manifest> = shape((object, path, problems) => {
  required(object, 'abi_version', path, problems, oneOf([ABI_VERSION]));
  required(object, 'world', path, problems, checkWorldIdentity);
  required(object, 'module_hash', path, problems, checkContentHash);
  required(object, 'source_hash', path, problems, checkContentHash);
  required(object, 'compiler', path, problems, checkManifestCompiler);
  required(object, 'sources', path, problems, checkStrings);
  required(object, 'rules', path, problems, listOf(checkManifestRule));
  required(object, 'actions', path, problems, mapOf(checkManifestAction));
  required(object, 'skills', path, problems, listOf(checkManifestSkill));
  required(object, 'scenarios', path, problems, listOf(checkManifestScenario));
  // Their shape is @adec/contracts' to check: the runtime does not read them.
  optional(object, 'skill_contracts', path, problems, listOf(checkObject));
});
