/**
 * Entry point of a supervised sandbox process (process-evaluator.ts forks it, one per module).
 *
 * Some failures inside isolated-vm are not recoverable in the process that hosts the isolate:
 * a single huge allocation makes V8 raise a fatal out-of-memory error that aborts or wedges
 * the whole process (measured: `new Array(2 ** 30).fill(1)` under a 32 MiB limit). Running the
 * isolate here means such a failure kills only this process; the host restarts it.
 *
 * Protocol (JSON over the IPC channel), one request at a time:
 *   → { id, load: { source, memoryLimitMb, filename } }      ← { id, metadata } | { id, error }
 *   → { id, evaluate: { spec, ctxJson, stepwise? } }          ← { id, evaluation }
 *   → { id, call: { entry, args, timeLimitMs } }             ← { id, crossing }
 * `stepwise` runs exactly the rules of `spec` one crossing each (crash attribution).
 */
import { evaluateAction, evaluateStepwise } from './evaluate-action.js';
import { IsolateSandbox } from './isolate-sandbox.js';
import type { ActionSpec } from '../module/module-metadata.js';

export interface LoadMessage {
  readonly id: number;
  readonly load: { readonly source: string; readonly memoryLimitMb: number; readonly filename: string; readonly extensions?: readonly string[] };
}

export interface EvaluateMessage {
  readonly id: number;
  readonly evaluate: { readonly spec: ActionSpec; readonly ctxJson: string; readonly stepwise?: boolean };
}

export interface CallMessage {
  readonly id: number;
  readonly call: { readonly entry: string; readonly args: readonly string[]; readonly timeLimitMs: number };
}

export type SandboxRequest = LoadMessage | EvaluateMessage | CallMessage;

let sandbox: IsolateSandbox | undefined;

function handle(message: SandboxRequest): Record<string, unknown> {
  if ('load' in message) {
    sandbox?.dispose();
    const created = IsolateSandbox.create(message.load.source, message.load);
    if (!created.ok) return { id: message.id, error: created.message };
    sandbox = created.sandbox;
    const metadata = sandbox.call('__adec_metadata', [], 1_000);
    return metadata.ok ? { id: message.id, metadata: metadata.value } : { id: message.id, error: metadata.message };
  }
  if (sandbox === undefined) return { id: message.id, error: 'no module is loaded in this sandbox process' };
  if ('call' in message) return { id: message.id, crossing: sandbox.call(message.call.entry, message.call.args, message.call.timeLimitMs) };
  const { spec, ctxJson, stepwise } = message.evaluate;
  return { id: message.id, evaluation: (stepwise === true ? evaluateStepwise : evaluateAction)(sandbox, spec, ctxJson) };
}

process.on('message', (message: SandboxRequest) => {
  process.send!(handle(message));
});
// The host went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
