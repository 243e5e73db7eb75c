/**
 * `manifest.json` of a bundle built for module ABI 1, before rule outcomes existed
 * (docs/spec/adjudication.md §6): such bundles keep loading without a rebuild. Its rules carry
 * a status literal as their severity, its actions only their context schema; the module itself
 * is brought to the current ABI in the isolate (packages/runtime/src/module/legacy-abi1.ts).
 * Only what the runtime reads is required.
 */
import { checkString, listOf, mapOf, oneOf, optional, required, shape, type Check } from './checks.js';
import { checkContentHash, checkManifestCompiler, type ManifestCompiler } from './manifest.js';
import { checkRuleOutcome, type RuleOutcome } from './rule-classes.js';
import { checkObjectValueSchema, type ObjectValueSchema } from './value-schema.js';

export interface ManifestAbi1 {
  readonly abi_version: 1;
  readonly world: WorldIdentityAbi1;
  readonly module_hash: string;
  readonly compiler?: ManifestCompiler;
  readonly actions: { readonly [action: string]: { readonly context_schema: ObjectValueSchema } };
  readonly rules?: readonly ManifestRuleAbi1[];
}

/** ABI 1 worlds may not name their id: it is then the domain. */
export interface WorldIdentityAbi1 {
  readonly org: string;
  readonly domain: string;
  readonly world?: string;
  readonly version: string;
}

export interface ManifestRuleAbi1 {
  readonly id: string;
  readonly action: string;
  /** The status the rule gave when it matched (its outcome, in today's words). */
  readonly severity: RuleOutcome;
}

const checkWorldIdentityAbi1: Check<WorldIdentityAbi1> = shape((object, path, problems) => {
  for (const key of ['org', 'domain', 'version']) required(object, key, path, problems, checkString);
  optional(object, 'world', path, problems, checkString);
});

const checkManifestRuleAbi1: Check<ManifestRuleAbi1> = shape((object, path, problems) => {
  required(object, 'id', path, problems, checkString);
  required(object, 'action', path, problems, checkString);
  required(object, 'severity', path, problems, checkRuleOutcome);
});

const checkActionAbi1: Check<{ readonly context_schema: ObjectValueSchema }> = shape((object, path, problems) => {
  required(object, 'context_schema', path, problems, checkObjectValueSchema);
});

export const checkManifestAbi1: Check<ManifestAbi1> = shape((object, path, problems) => {
  required(object, 'abi_version', path, problems, oneOf([1]));
  required(object, 'world', path, problems, checkWorldIdentityAbi1);
  required(object, 'module_hash', path, problems, checkContentHash);
  optional(object, 'compiler', path, problems, checkManifestCompiler);
  required(object, 'actions', path, problems, mapOf(checkActionAbi1));
  optional(object, 'rules', path, problems, listOf(checkManifestRuleAbi1));
});
