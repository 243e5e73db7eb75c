/**
 * Entry point of a supervised sandbox process (process-evaluator.ts forks it, one per module).
 *
 * Some failures inside isolated-vm are not recoverable in the process that hosts the isolate:
 * a single huge allocation makes V8 raise a fatal out-of-memory error that aborts or wedges
 * the whole process (measured: `new Array(2 ** 30).fill(1)` under a 32 MiB limit). Running the
 * isolate here means such a failure kills only this process; the host restarts it.
 *
 * Protocol (JSON over the IPC channel), one request at a time, after the process announces
 * that it has booted with READY_MESSAGE (sandbox-process-pool.ts):
 *   → { id, load: { memoryLimitMb, filename } }              ← { id, metadata } | { id, error }
 *     followed by the bundle's source as a frame on the bulk pipe (bulk-frames.ts)
 *   → { id, evaluate: { action, ctxJson, only? } }            ← { id, evaluation }
 *   → { id, call: { entry, args, timeLimitMs } }             ← { id, crossing }
 * `only` runs exactly those rules, one crossing each, after the first `derive` derivations,
 * with the `failed` ones treated as failed (crash attribution). The process reads
 * the action specs from the module once at load, so a request carries only its context.
 */
import { Socket } from 'node:net';
import { BULK_FD, FrameReader } from './bulk-frames.js';
import { evaluateAction, evaluateStepwise } from './evaluate-action.js';
import { blankIsolate, IsolateSandbox, type BlankIsolate } from './isolate-sandbox.js';
import { parseModuleMetadata, type ActionSpec } from '../module/module-metadata.js';
import { READY_MESSAGE } from './sandbox-process-pool.js';

export interface LoadMessage {
  readonly id: number;
  readonly load: { readonly memoryLimitMb: number; readonly filename: string; readonly extensions?: readonly string[] };
}

export interface EvaluateMessage {
  readonly id: number;
  readonly evaluate: {
    readonly action: string;
    readonly ctxJson: string;
    /** Run exactly these rules, one crossing each (crash attribution). */
    readonly only?: readonly string[];
    /** Derive only the first `derive` computed attributes (crash attribution). */
    readonly derive?: number;
    /** Derivations to treat as failed without running them: reading one throws this message. */
    readonly failed?: Readonly<Record<string, string>>;
  };
}

export interface CallMessage {
  readonly id: number;
  readonly call: { readonly entry: string; readonly args: readonly string[]; readonly timeLimitMs: number };
}

export type SandboxRequest = LoadMessage | EvaluateMessage | CallMessage;

const frames = new FrameReader(new Socket({ fd: BULK_FD, readable: true, writable: false }));
let sandbox: IsolateSandbox | undefined;
/**
 * Made while the process waits for its module, with the memory limit its host forked it for;
 * if that fails, the load makes its own (and reports what went wrong).
 */
let blank: BlankIsolate | undefined = prepareBlank(Number(process.argv[2]));

function prepareBlank(memoryLimitMb: number): BlankIsolate | undefined {
  try {
    return blankIsolate(memoryLimitMb);
  } catch {
    return undefined;
  }
}

let metadataJson = '';
let parsedSpecs: ReadonlyMap<string, ActionSpec> | undefined;

/** The action specs, parsed on first use: the load replies first, so the host is not kept waiting. */
function specs(): ReadonlyMap<string, ActionSpec> {
  if (parsedSpecs === undefined) {
    const parsed = parseModuleMetadata(metadataJson);
    parsedSpecs = parsed.ok ? parsed.metadata.actions : new Map();
  }
  return parsedSpecs;
}

/** Loads the module whose source is the next frame on the bulk pipe. */
async function load(message: LoadMessage): Promise<Record<string, unknown>> {
  const source = await frames.next();
  sandbox?.dispose();
  const created = IsolateSandbox.create(source, message.load, blank);
  blank = undefined;
  if (!created.ok) return { id: message.id, error: created.message };
  sandbox = created.sandbox;
  metadataJson = created.metadataJson;
  parsedSpecs = undefined;
  // Parsed while the host assembles its side of the module, before the first decision.
  setImmediate(specs);
  return { id: message.id, metadata: created.metadataJson };
}

/** Every other request, answered synchronously: a decision takes no extra hop. */
function handle(message: EvaluateMessage | CallMessage): Record<string, unknown> {
  if (sandbox === undefined) return { id: message.id, error: 'no module is loaded in this sandbox process' };
  if ('call' in message) return { id: message.id, crossing: sandbox.call(message.call.entry, message.call.args, message.call.timeLimitMs) };
  const { action, ctxJson, only, derive, failed = {} } = message.evaluate;
  const spec = specs().get(action);
  if (spec === undefined) return { id: message.id, error: `no action ${action} in the loaded module` };
  if (only === undefined) return { id: message.id, evaluation: evaluateAction(sandbox, spec, ctxJson) };
  const subset = {
    ...spec,
    computed: spec.computed.slice(0, derive ?? spec.computed.length),
    rules: spec.rules.filter((rule) => only.includes(rule.id)),
  };
  return { id: message.id, evaluation: evaluateStepwise(sandbox, subset, ctxJson, failed) };
}

process.on('message', (message: SandboxRequest) => {
  if ('load' in message) void load(message).then((reply) => process.send!(reply));
  else process.send!(handle(message));
});
// The host went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));

// A spare whose host went away while it booted has nobody to tell.
if (process.connected) process.send!(READY_MESSAGE);
