/**
 * Evaluation in an isolate of this process: the fastest path (one isolated-vm crossing per
 * decision), for hosts that accept that a fatal V8 error inside isolated-vm can take the
 * process down (see the runtime README, "Isolation").
 */
import type { ActionEvaluator } from '../load/loaded-module.js';
import type { ActionSpec } from '../module/module-metadata.js';
import { evaluateAction, type ActionEvaluation } from './evaluate-action.js';
import type { CrossingResult, IsolateSandbox } from './isolate-sandbox.js';

export class InProcessEvaluator implements ActionEvaluator {
  constructor(private readonly sandbox: IsolateSandbox) {}

  evaluate(spec: ActionSpec, ctxJson: string): ActionEvaluation {
    return evaluateAction(this.sandbox, spec, ctxJson);
  }

  call(entry: string, args: readonly string[], timeLimitMs: number): CrossingResult {
    return this.sandbox.call(entry, args, timeLimitMs);
  }

  async dispose(): Promise<void> {
    this.sandbox.dispose();
  }
}
