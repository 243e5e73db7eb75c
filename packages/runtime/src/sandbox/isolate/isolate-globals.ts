/**
 * The names the host, the bundle and the trusted scripts put on an isolate's global object,
 * typed. Code in this folder runs inside the isolate (it is bundled into the strings of
 * ../isolate-prelude.generated.ts), where there is no Node, no timer and no host object: only
 * the language's own intrinsics and what is listed here.
 */
import type { CompiledModule } from './compiled-module.js';

/** The host's `performance.now`, as an isolated-vm reference (isolate-sandbox.ts sets it). */
export interface HostClock {
  applySync(receiver: undefined, args: []): number;
}

/** What the evaluator hands a trusted extension besides the module. */
export interface EvaluatorHelpers {
  /** A thrown value as one line of text (`Name: message`), whatever was thrown. */
  readonly messageOf: (error: unknown) => string;
  /** The host's monotonic clock in milliseconds: only trusted extensions ever receive it. */
  readonly now: () => number;
}

export type ExtensionInstall = (module: CompiledModule, helpers: EvaluatorHelpers) => void;

/**
 * An entry point as the host calls it: its arguments in one array, its answer in another, so
 * both cross copied whole (../isolate-sandbox.ts, `boxedEntry`, says why).
 */
export type BoxedEntry = (args: readonly string[]) => [string];

export interface IsolateGlobals {
  /** Defined by the bundle (a `var`, so not deletable); the evaluator takes it and clears it. */
  __adec_module: CompiledModule | undefined;
  /** Set by the host once the bundle ran; the evaluator takes it away at once. */
  __adec_clock?: HostClock;
  __adec_evaluate_batch?: (actionLines: string, ctxLines: string) => string;
  __adec_cursor?: () => string;
  __adec_skip?: (message: string) => string;
  __adec_resume?: () => string;
  __adec_derive?: (action: string, ctxJson: string, failedJson: string, name: string) => string;
  __adec_rules?: (action: string, ctxJson: string, failedJson: string, idsJson: string) => string;
  __adec_metadata?: () => string;
  /** The entry point of that name, boxed; installed by the evaluator and kept after the seal. */
  __adec_box_entry?: (name: string) => BoxedEntry;
  /** Present between the evaluator and the seal: how trusted extensions install entry points. */
  __adec_extend?: (install: ExtensionInstall) => void;
  __adec_seal?: () => void;
}

/** The isolate's global object, seen through the names above. */
export const isolateGlobals = globalThis as unknown as IsolateGlobals;
