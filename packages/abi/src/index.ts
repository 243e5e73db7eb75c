/**
 * @adec/abi — the contract between the compiler and the runtime, at the bottom of the package
 * graph: the manifest (every version the runtime still reads), the tables a generated module
 * exports, work frame templates and value schemas, as types and as validators that return
 * problems with their JSON path instead of throwing.
 */
export { AbiProblems, childPath, describeProblems, describeValue, MAX_REPORTED_PROBLEMS, type AbiProblem, type AbiProblemCode, type AbiResult } from './abi-problem.js';
export { isJsonObject, validate, type Check, type JsonObject } from './checks.js';
export type { JsonValue } from './json-value.js';
export {
  ABI_VERSION,
  checkManifest,
  type Manifest,
  type ManifestAction,
  type ManifestCompiler,
  type ManifestRule,
  type ManifestScenario,
  type ManifestSkill,
  type ManifestSpan,
} from './manifest.js';
export { checkManifestAbi1, type ManifestAbi1, type ManifestRuleAbi1, type WorldIdentityAbi1 } from './manifest-abi1.js';
export { isCurrentManifest, readManifest, READABLE_ABI_VERSIONS, type AnyManifest } from './read-manifest.js';
export {
  BUNDLE_GLOBAL_NAME,
  checkActionEntry,
  checkDurationShapeEntry,
  checkModuleMetadataJson,
  MAX_PREDICATE_TIMEOUT_MS,
  MODULE_ABI_VERSIONS,
  type ActionEntry,
  type DurationShapeEntry,
  type ModuleMetadataJson,
  type ModuleWorld,
} from './module-registries.js';
export {
  AGGREGATION_MODES,
  checkAggregationSpec,
  RULE_OUTCOMES,
  SEVERITY_TIERS,
  type AggregationMode,
  type AggregationSpec,
  type RuleOutcome,
  type SeverityTier,
} from './rule-classes.js';
export { checkObjectValueSchema, checkValueSchema, MAX_SCHEMA_DEPTH, VALUE_TYPES, type ObjectValueSchema, type ValueSchema, type ValueType } from './value-schema.js';
export {
  checkWorkFrameTemplate,
  checkWorkFrameTemplates,
  workFrameTemplateFields,
  WORK_FRAME_LIST_FIELDS, WORK_FRAME_TEXT_FIELDS, type WorkFrameTemplate, type WorkFrameTemplates } from './work-frame-template.js';
export { WORK_FRAME_FIELDS, type WorkFrame, type WorkFrameFieldKind } from './work-frame.js';
export { checkWorldIdentity, type WorldIdentity } from './world-identity.js';
export {
  checkScenarioDescriptions,
  checkSkillDescriptions,
  EXECUTION_MODES,
  SKILL_TYPES,
  type ActionTypeDescription,
  type ExecutionMode,
  type InvariantDescription,
  type ProhibitionDescription,
  type ScenarioDescription,
  type SignalDescription,
  type SkillDescription,
  type SkillType,
} from './selection-registries.js';
export {
  DETERMINISTIC_HARD_LIMIT_MS,
  enforcedSkillTimeLimits,
  LLM_HARD_LIMIT_MS,
  SKILL_TIME_LIMITS,
  type DeclaredSkillTimes,
  type SkillTimeLimits,
} from './skill-time-limits.js';
export {
  ACTION_SELECTION_FIELDS,
  EXTERNAL_REFERENCE,
  GUARDRAIL_BYPASS,
  SCORING_FIELDS,
  STATE_CHANGE_FIELDS,
  STATE_CHANGE_PREFIX,
  UNIVERSAL_INVARIANTS,
  UNIVERSAL_PROHIBITIONS,
  type UniversalInvariant,
  type UniversalProhibition,
} from './universal-skill-checks.js';
export { DECISION_BASES, type DecisionBasis } from './decision-basis.js';
export { OBJECT_PROTOTYPE_NAMES } from './prototype-names.js';
export { HELPER_LIBRARY, HELPER_NAMES, type HelperDefinition, type HelperName } from './helper-library.js';
export { ESBUILD_PRELUDE, HELPER_BUNDLE_SHA256 } from './bundle-forms.generated.js';
export { DEFAULT_RETENTION_DAYS } from './audit-retention.js';
