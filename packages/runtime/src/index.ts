/**
 * @adec/runtime — verifies signed bundles, loads them into isolated-vm sandboxes and decides
 * adjudications with the composition root of ARCHITECTURE.md.
 */
export * from './trust/index.js';
export * from './decide/decide.js';
export type * from './decide/decision.js';
export { isMachineFault, type TakenAsRecorded } from './decide/recorded-faults.js';
export { comparedInReplay } from './decide/replay-comparison.js';
export type { AggregationOutcome, AggregationBasis } from './decide/aggregate.js';
export type { Status, Tier } from './decide/status.js';
export type { WorkFrame } from './decide/work-frame.js';
export type { BindingProblem } from './context/context-binder.js';
export type { LoadedModule, ActionEvaluator } from './load/loaded-module.js';
export type { ModulePreparation, PrepareModule } from './load/module-preparation.js';
export { loadModule, DEFAULT_MEMORY_LIMIT_MB, type BundleToLoad, type SandboxOptions, type LoadResult } from './load/load-module.js';
export { chooseIsolation, ISOLATION_MODES, ISOLATION_REASONS, type Isolation, type IsolationChoice, type IsolationMode, type IsolationReason } from './load/isolation-choice.js';
export { ModuleLoader, RETRY_BACKOFF_MS, MAX_RETRY_BACKOFF_MS, type RoutingKey, type LoadError, type LoadErrorCode, type ModuleLookup, type ModuleLoaderOptions, type ModuleLoaderStats, type RefreshOutcome, REPLACED_MODULE_GRACE_MS } from './load/module-loader.js';
export { DirectoryModuleStore, type DirectoryModuleStoreOptions, type ModuleStore, type WorldKey } from './load/module-store.js';
export { STORE_READ_ATTEMPTS, STORE_RETRY_DELAY_MS } from './load/store-read.js';
export { verifyGeneratedCode, type GeneratedCodeVerdict } from './load/generated-code/verify-generated-code.js';
export { SandboxProcessPool, type SandboxPoolOptions, type SandboxPoolStats } from './sandbox/sandbox-process-pool.js';
export type { SandboxProcessMemory } from './sandbox/sandbox-memory.js';
export { durationMs, durationText, isoDuration, isoDurationMs, timestampMs } from './context/wire-values.js';
export { parseRequestJson, firstInvalidUtf8, type RequestJson, type RequestJsonProblem, type RequestJsonProblemCode } from './context/request-json.js';
export { checkRequestBytes, checkValueLimits, DEFAULT_REQUEST_LIMITS, requestLimits, type LimitProblem, type RequestLimitName, type RequestLimits } from './context/request-limits.js';
export { compileValueConverter, describeValue, type ValueConverter, type ValueProblem, type ValueSchema } from './context/value-converter.js';
