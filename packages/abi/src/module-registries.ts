/**
 * The static tables a generated module exports, as the host copies them out of the isolate
 * once at load (`__adec_metadata`, packages/runtime/src/sandbox/isolate-prelude.ts) and
 * validates them (packages/runtime/src/module/module-metadata.ts). The generated module
 * declares the same shapes in TypeScript (module-declarations.ts, checked against these by
 * module-declarations-agree.ts).
 */
import { childPath, pathText, type AbiProblems } from './abi-problem.js';
import {
  checkNumber,
  checkObject,
  checkString,
  checkStrings,
  mapOf,
  oneOf,
  optional,
  required,
  shape,
  type Check,
} from './checks.js';
import { checkAggregationSpec, checkRuleOutcome, checkSeverityTier, type AggregationSpec, type RuleOutcome, type SeverityTier } from './rule-classes.js';
import { MAX_SCHEMA_DEPTH } from './value-schema.js';
import { checkWorkFrameTemplates, type WorkFrameTemplates } from './work-frame-template.js';

/** The longest time limit a predicate (or a derivation) may have, in ms: the compiler refuses more, the runtime too. */
export const MAX_PREDICATE_TIMEOUT_MS = 1_000;

/** The global a bundle defines (`var __adec_module = (() => { … })();`); a host reads the module's registries from it. */
export const BUNDLE_GLOBAL_NAME = '__adec_module';

/** The module ABIs a host runs: ABI 1 modules are brought to ABI 2 in the isolate first. */
export const MODULE_ABI_VERSIONS = [1, 2] as const;

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

/** A time limit in ms: 0 < t ≤ MAX_PREDICATE_TIMEOUT_MS. */
const checkTimeLimit: Check<number> = (value, path, problems): value is number =>
  checkNumber(value, path, problems) &&
  ((value > 0 && value <= MAX_PREDICATE_TIMEOUT_MS) ||
    problems.add('VALUE_NOT_ALLOWED', path, `${pathText(path)} is ${value} ms, outside 0 < t ≤ ${MAX_PREDICATE_TIMEOUT_MS}`));

export const checkDurationShapeEntry: Check<DurationShapeEntry> = (value, path, problems): value is DurationShapeEntry => durationShapeAt(value, path, problems, 0);

function durationShapeAt(value: unknown, path: string, problems: AbiProblems, depth: number): value is DurationShapeEntry {
  if (depth > MAX_SCHEMA_DEPTH) return problems.add('NESTED_TOO_DEEP', path, `${pathText(path)} nests more than ${MAX_SCHEMA_DEPTH} levels deep`);
  if (value === true) return true;
  if (!checkObject(value, path, problems)) return false;
  if (Object.hasOwn(value, 'items')) return durationShapeAt(value['items'], childPath(path, 'items'), problems, depth + 1);
  if (Object.hasOwn(value, 'fields')) return durationFieldsAt(value['fields'], childPath(path, 'fields'), problems, depth + 1);
  return problems.add('VALUE_NOT_ALLOWED', path, `${pathText(path)} is not a duration shape: expected true, \`{ items }\` or \`{ fields }\``);
}

function durationFieldsAt(value: unknown, path: string, problems: AbiProblems, depth: number): boolean {
  if (!checkObject(value, path, problems)) return false;
  const before = problems.count;
  for (const [name, shape] of Object.entries(value)) durationShapeAt(shape, childPath(path, name), problems, depth);
  return problems.count === before;
}

export const checkActionEntry: Check<ActionEntry> = shape((object, path, problems) => {
  required(object, 'rules', path, problems, checkStrings);
  required(object, 'aggregation', path, problems, checkAggregationSpec);
  optional(object, 'work_frames', path, problems, checkWorkFrameTemplates);
  for (const key of ['computed', 'supplied', 'system', 'reads']) optional(object, key, path, problems, checkStrings);
  optional(object, 'durations', path, problems, mapOf(checkDurationShapeEntry));
  required(object, 'predicate_timeout_ms', path, problems, checkTimeLimit);
  optional(object, 'rule_timeout_ms', path, problems, mapOf(checkTimeLimit));
});

const checkModuleWorld: Check<ModuleWorld> = shape((object, path, problems) => {
  for (const key of ['org', 'domain', 'version']) required(object, key, path, problems, checkString);
  optional(object, 'world', path, problems, checkString);
});

/**
 * The module's tables, each of its shape, and consistent with each other: every rule an
 * action lists has a predicate, an outcome and a severity.
 */
export const checkModuleMetadataJson: Check<ModuleMetadataJson> = (value, path, problems): value is ModuleMetadataJson =>
  checkTables(value, path, problems) && rulesDefined(value, path, problems);

const checkTables: Check<ModuleMetadataJson> = shape((object, path, problems) => {
  required(object, 'abi_version', path, problems, oneOf(MODULE_ABI_VERSIONS));
  required(object, 'world', path, problems, checkModuleWorld);
  required(object, 'actions', path, problems, mapOf(checkActionEntry));
  required(object, 'outcome', path, problems, mapOf(checkRuleOutcome));
  required(object, 'severity', path, problems, mapOf(checkSeverityTier));
  required(object, 'suppresses', path, problems, mapOf(checkStrings));
  required(object, 'reads', path, problems, mapOf(checkStrings));
  required(object, 'predicates', path, problems, checkStrings);
});

/** Every rule an action lists is in `_RULE_FUNCTIONS`, `_RULE_OUTCOME` and `_RULE_SEVERITY`. */
function rulesDefined(metadata: ModuleMetadataJson, path: string, problems: AbiProblems): boolean {
  const before = problems.count;
  const predicates = new Set(metadata.predicates);
  for (const [name, action] of Object.entries(metadata.actions)) {
    action.rules.forEach((id, index) => {
      const at = childPath(childPath(childPath(childPath(path, 'actions'), name), 'rules'), index);
      const missing = [
        ...(predicates.has(id) ? [] : ['predicate']),
        ...(Object.hasOwn(metadata.outcome, id) ? [] : ['outcome']),
        ...(Object.hasOwn(metadata.severity, id) ? [] : ['severity']),
      ];
      if (missing.length > 0) problems.add('VALUE_NOT_ALLOWED', at, `${pathText(at)} names rule \`${id}\`, which has no ${missing.join(', no ')}`);
    });
  }
  return problems.count === before;
}
