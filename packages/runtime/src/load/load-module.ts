/**
 * Turns a verified bundle into a live module: a sandbox holding the bundle, the module's
 * metadata (checked against the signed manifest), a context binder per action compiled
 * from the manifest's schemas, and what the host's `prepare` readies before the module is
 * handed out (module-preparation.ts). The manifest is read here, through @adec/abi's `readManifest`:
 * every module runs through this function, whoever parsed its manifest. Only bytes that passed verification ever reach this function's
 * callers in production: the loader (module-loader.ts) calls it with `verifyBundle`'s output.
 */
import { describeProblems, readManifest, type AnyManifest } from '@adec/abi';
import { compileContextBinder, type ContextBinder } from '../context/context-binder.js';
import { requestLimits, type RequestLimits } from '../context/request-limits.js';
import { parseModuleMetadata, type ModuleMetadata } from '../module/module-metadata.js';
import { findBigIntLiteral } from '../sandbox/find-bigint-literal.js';
import { IsolateSandbox } from '../sandbox/isolate-sandbox.js';
import { InProcessEvaluator } from '../sandbox/in-process-evaluator.js';
import { ProcessEvaluator } from '../sandbox/process-evaluator.js';
import { defaultSandboxPool, type SandboxProcessPool } from '../sandbox/sandbox-process-pool.js';
import type { ApprovalCompiler } from '../trust/messages.js';
import { verifyGeneratedCode } from './generated-code/verify-generated-code.js';
import { chooseIsolation, type Isolation, type IsolationChoice } from './isolation-choice.js';
import type { ActionEvaluator, LoadedModule } from './loaded-module.js';
import type { PrepareModule } from './module-preparation.js';

/** What loading needs from a verified bundle (trust/verify-bundle.ts produces it). */
export interface BundleToLoad {
  /** The parsed manifest.json, of any ABI `readManifest` reads. */
  readonly manifest: unknown;
  readonly moduleHash: string;
  readonly bundleSource: string;
  /** The compiler that rebuilt the bundle for its approval, when the approval says so (verify-bundle.ts). */
  readonly rebuiltBy?: ApprovalCompiler;
}

export interface SandboxOptions {
  /** Heap limit of each isolate in MiB. */
  readonly memoryLimitMb?: number;
  /**
   * `auto` (default): a module approved after a byte-identical rebuild whose code the verifier
   * accepts runs in this process; any other in a sandbox process (isolation-choice.ts).
   * `process`: every isolate lives in a supervised sandbox process shared with other modules
   * (sandbox-process-pool.ts), so not even a fatal V8 error can take the host down; costs one
   * round trip on a pipe per decision.
   * `in-process`: every isolate lives in this process, whatever its code: for hosts that accept
   * that risk for every bundle they are given.
   */
  readonly isolation?: Isolation;
  /** Limits on a request's context, checked before anything else (default DEFAULT_REQUEST_LIMITS). */
  readonly requestLimits?: Partial<RequestLimits>;
  /** Trusted scripts that add entry points to the isolate (see IsolateOptions.extensions). */
  readonly extensions?: readonly string[];
  /**
   * Run on every module this loads, before it is returned (module-preparation.ts): what the
   * extensions' entry points need is read and compiled at load, not by the first request.
   */
  readonly prepare?: PrepareModule;
  /** `process` isolation, in a ModuleLoader: how many shared sandbox processes (default: one per core, at least 2). */
  readonly processes?: number;
  /**
   * `process` isolation, in a ModuleLoader: how many sandbox processes to keep booted ahead of
   * need (default 1), so replacing a dead one or attributing a crash does not wait ~200 ms.
   */
  readonly spareProcesses?: number;
  /**
   * `process` isolation, in a ModuleLoader: decisions queued or in flight per sandbox process;
   * beyond it a decision is a YELLOW with basis `OVERLOADED` (default 1,000).
   */
  readonly queueLimit?: number;
  /**
   * `process` isolation, in a ModuleLoader: modules loaded in the sandbox processes at once, and
   * the sum of their isolates' memory limits in MiB; past either, the least recently used idle
   * modules are unloaded until their next decision (defaults: 1,000 modules, half the machine's memory).
   */
  readonly moduleBudget?: number;
  readonly memoryBudgetMb?: number;
  /**
   * `process` isolation, in a ModuleLoader: a shared sandbox process is recycled (replaced by
   * a booted one, and drained) after this many decisions, or once its resident set is above
   * this many MiB (default: neither; runtime README "Memory of a sandbox process").
   */
  readonly recycleAfterDecisions?: number;
  readonly recycleAboveRssMb?: number;
}

export const DEFAULT_MEMORY_LIMIT_MB = 32;

/** `HOST_AT_CAPACITY`: the sandbox pool's budget of modules or isolate memory had no room for it. */
export type LoadResult = { readonly ok: true; readonly module: LoadedModule } | { readonly ok: false; readonly code: 'MODULE_INVALID' | 'HOST_AT_CAPACITY'; readonly message: string };

/**
 * Starts a sandbox holding the bundle and assembles the module around it. `processes` supplies
 * the sandbox processes in `process` isolation; without it the default pool (one process per core).
 * `choice` is where it runs, when the caller made that choice (the loader, which verifies code on
 * a thread); otherwise it is made here, verifying a rebuilt module's code first.
 */
export async function loadModule(bundle: BundleToLoad, options: SandboxOptions = {}, processes?: SandboxProcessPool, choice?: IsolationChoice): Promise<LoadResult> {
  const bigInt = findBigIntLiteral(bundle.bundleSource);
  if (bigInt !== undefined) {
    const { line, column } = lineAndColumn(bundle.bundleSource, bigInt);
    return { ok: false, code: 'MODULE_INVALID', message: `the bundle writes a BigInt literal at line ${line}, column ${column}: BigInt arithmetic is not allowed in a sandbox (it cannot be interrupted or bounded)` };
  }
  const sandboxOptions = {
    source: bundle.bundleSource,
    memoryLimitMb: options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
    filename: `bundle-${bundle.moduleHash}.js`,
    extensions: options.extensions ?? [],
  };
  const isolation = choice ?? chooseHere(bundle, options.isolation ?? 'auto');
  const started =
    isolation.mode === 'process'
      ? await ProcessEvaluator.start({ ...sandboxOptions, processes: processes ?? defaultSandboxPool(sandboxOptions.memoryLimitMb) })
      : startInProcess(sandboxOptions);
  if (!started.ok) return { ok: false, code: 'atCapacity' in started ? 'HOST_AT_CAPACITY' : 'MODULE_INVALID', message: started.message };
  const assembled = assembleModule(bundle, started.metadataJson, requestLimits(options.requestLimits));
  if (!assembled.ok) {
    await started.evaluator.dispose();
    return { ok: false, code: 'MODULE_INVALID', message: assembled.message };
  }
  const module: LoadedModule = { ...assembled.parts, evaluator: started.evaluator, isolation, preparation: null };
  return { ok: true, module: options.prepare === undefined ? module : { ...module, preparation: await options.prepare(module) } };
}

function chooseHere(bundle: BundleToLoad, configured: Isolation): IsolationChoice {
  const rebuiltBy = bundle.rebuiltBy;
  const verdict = configured === 'auto' && rebuiltBy !== undefined ? verifyGeneratedCode(bundle.bundleSource) : undefined;
  return chooseIsolation({ configured, rebuiltBy, verdict });
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

type Started = { ok: true; evaluator: ActionEvaluator; metadataJson: string } | { ok: false; message: string };

function startInProcess(options: { source: string; memoryLimitMb: number; filename: string; extensions: readonly string[] }): Started {
  const created = IsolateSandbox.create(options.source, options);
  return created.ok ? { ok: true, evaluator: new InProcessEvaluator(created.sandbox), metadataJson: created.metadataJson } : created;
}

type ModuleParts = Omit<LoadedModule, 'evaluator' | 'isolation' | 'preparation'>;

/** Metadata + binders, after checking the module is the one its manifest describes. */
function assembleModule(bundle: BundleToLoad, metadataJson: string, limits: RequestLimits): { ok: true; parts: ModuleParts } | { ok: false; message: string } {
  const manifest = readManifest(bundle.manifest);
  if (!manifest.ok) return { ok: false, message: `the manifest is not one this runtime reads: ${describeProblems(manifest.problems)}` };
  const parsed = parseModuleMetadata(metadataJson);
  if (!parsed.ok) return parsed;
  const mismatch = manifestMismatch(manifest.value, parsed.metadata);
  if (mismatch !== undefined) return { ok: false, message: mismatch };
  const binders = new Map<string, ContextBinder>();
  const { actions } = manifest.value;
  for (const [name, spec] of parsed.metadata.actions) {
    const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
    if (action !== undefined) binders.set(name, compileContextBinder(action.context_schema, spec.system));
  }
  return { ok: true, parts: { metadata: parsed.metadata, moduleHash: bundle.moduleHash, requestLimits: limits, binders } };
}

function manifestMismatch(manifest: AnyManifest, metadata: ModuleMetadata): string | undefined {
  for (const key of ['org', 'domain', 'version'] as const) {
    if (manifest.world[key] !== metadata.world[key]) {
      return `the manifest says ${key} ${JSON.stringify(manifest.world[key])} but the module says ${JSON.stringify(metadata.world[key])}`;
    }
  }
  if (manifest.abi_version !== metadata.abiVersion) return `the manifest says ABI ${manifest.abi_version} but the module implements ABI ${metadata.abiVersion}`;
  const missing = [...metadata.actions.keys()].find((name) => !Object.hasOwn(manifest.actions, name));
  return missing === undefined ? undefined : `the module's action \`${missing}\` is not in the manifest`;
}
