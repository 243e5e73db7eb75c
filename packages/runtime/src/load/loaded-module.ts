/**
 * A module that passed verification and is live in a sandbox: its metadata, the limits its
 * requests are held to, one compiled context binder per action, and the evaluator that crosses
 * into the sandbox.
 */
import type { ContextBinder } from '../context/context-binder.js';
import type { RequestLimits } from '../context/request-limits.js';
import type { ActionSpec, ModuleMetadata } from '../module/module-metadata.js';
import type { ActionEvaluation, Unevaluated } from '../sandbox/evaluate-action.js';
import type { CrossingResult } from '../sandbox/isolate-sandbox.js';
import type { IsolationChoice } from './isolation-choice.js';
import type { ModulePreparation } from './module-preparation.js';

/** Where predicates run: an isolate in this process, or one in a supervised worker process. */
export interface ActionEvaluator {
  /** In-process evaluation is synchronous and cannot be interrupted: `control` is for evaluators that queue. */
  evaluate(spec: ActionSpec, ctxJson: string, control?: EvaluationControl): ActionEvaluation | Promise<ActionEvaluation | Unevaluated>;
  /** Calls another entry point of the isolate (one installed by a trusted extension). */
  call(entry: string, args: readonly string[], timeLimitMs: number): CrossingResult | Promise<CrossingResult>;
  /** Releases the isolate(s); the module cannot decide afterwards. */
  dispose(): Promise<void>;
}

export interface EvaluationControl {
  /** Aborted: the evaluation is given up (`CANCELLED`, or `DEADLINE_EXCEEDED` for a `TimeoutError` reason). */
  readonly signal?: AbortSignal;
}

export interface LoadedModule {
  readonly metadata: ModuleMetadata;
  readonly moduleHash: string;
  /** Checked before anything else reads a request; a request over one is refused (decide.ts). */
  readonly requestLimits: RequestLimits;
  readonly binders: ReadonlyMap<string, ContextBinder>;
  readonly evaluator: ActionEvaluator;
  /** Where its predicates run (the evaluator's kind) and why. */
  readonly isolation: IsolationChoice;
  /** What the host's `prepare` did while the module loaded (module-preparation.ts); null without one. */
  readonly preparation: ModulePreparation | null;
}
