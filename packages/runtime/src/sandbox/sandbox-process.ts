/**
 * Entry point of a supervised sandbox process: it hosts the isolates of many modules, one
 * isolate per module with its own memory limit (sandbox-process-pool.ts places modules on
 * processes; process-evaluator.ts is a module's host-side handle).
 *
 * Some failures inside isolated-vm are not recoverable in the process that hosts the isolate:
 * a single huge allocation makes V8 raise a fatal out-of-memory error that aborts the whole
 * process (measured: `new Array(2 ** 30).fill(1)` under a 32 MiB limit). Running the isolates
 * here means such a failure kills only this process; the host replaces it, answers the other
 * decisions that were waiting on it elsewhere, and pins the crash on the one that was running.
 *
 * Protocol: JSON text frames on the frame pipe (frames.ts), each request answered by one reply
 * frame with its id, strictly in the order received, after the process announces that it has
 * booted with READY_MESSAGE on its IPC channel (sandbox-process-pool.ts):
 *   → { id, module, load: { memoryLimitMb, filename, extensions? } }  ← { id, metadata } | { id, error }
 *     followed by a frame holding the bundle's source
 *   → { id, module, evaluate: { action, ctxJson, only?, derive?, failed? } }  ← { id, evaluation }
 *   → { id, module, call: { entry, args, timeLimitMs } }             ← { id, crossing }
 *   → { id, module, unload: true }                                   ← { id }
 * `only` runs exactly those rules, one crossing each, after the first `derive` derivations,
 * with the `failed` ones treated as failed (crash attribution). The process reads the action
 * specs from each module once, so a request carries only its context.
 */
import { Socket } from 'node:net';
import { FRAME_FD, FrameReader, writeFrame } from './frames.js';
import { evaluateAction, evaluateStepwise } from './evaluate-action.js';
import { blankIsolate, IsolateSandbox, type BlankIsolate } from './isolate-sandbox.js';
import { parseModuleMetadata, type ActionSpec } from '../module/module-metadata.js';
import { READY_MESSAGE } from './sandbox-process-pool.js';

interface Addressed {
  readonly id: number;
  /** The host's name for the module (unique per loaded module). */
  readonly module: string;
}

export interface LoadMessage extends Addressed {
  readonly load: { readonly memoryLimitMb: number; readonly filename: string; readonly extensions?: readonly string[] };
}

export interface EvaluateMessage extends Addressed {
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

export interface CallMessage extends Addressed {
  readonly call: { readonly entry: string; readonly args: readonly string[]; readonly timeLimitMs: number };
}

export interface UnloadMessage extends Addressed {
  readonly unload: true;
}

export type SandboxRequest = LoadMessage | EvaluateMessage | CallMessage | UnloadMessage;

interface HostedModule {
  readonly sandbox: IsolateSandbox;
  readonly metadataJson: string;
  specs?: ReadonlyMap<string, ActionSpec>;
}

const DEFAULT_MEMORY_LIMIT_MB = Number(process.argv[2]);
const pipe = new Socket({ fd: FRAME_FD, readable: true, writable: true });
const modules = new Map<string, HostedModule>();
/** A load whose bundle source is the next frame. */
let awaitingSource: LoadMessage | undefined;
/**
 * An isolate made while the process waits, with the memory limit most modules use, so a load
 * compiles the bundle at once; if making it fails, the load makes its own (and reports why).
 */
let blank: BlankIsolate | undefined = prepareBlank();

function prepareBlank(): BlankIsolate | undefined {
  try {
    return blankIsolate(DEFAULT_MEMORY_LIMIT_MB);
  } catch {
    return undefined;
  }
}

function reply(body: Record<string, unknown>): void {
  writeFrame(pipe, JSON.stringify(body));
}

new FrameReader(pipe, (frame) => {
  if (awaitingSource !== undefined) {
    const message = awaitingSource;
    awaitingSource = undefined;
    reply(load(message, frame));
    return;
  }
  const message = JSON.parse(frame) as SandboxRequest;
  if ('load' in message) awaitingSource = message;
  else reply(handle(message));
});

function load(message: LoadMessage, source: string): Record<string, unknown> {
  modules.get(message.module)?.sandbox.dispose();
  modules.delete(message.module);
  const created = IsolateSandbox.create(source, message.load, blank);
  blank = undefined;
  // The next blank isolate is made once this reply is on its way.
  setImmediate(() => {
    blank ??= prepareBlank();
  });
  if (!created.ok) return { id: message.id, error: created.message };
  modules.set(message.module, { sandbox: created.sandbox, metadataJson: created.metadataJson });
  return { id: message.id, metadata: created.metadataJson };
}

/** The action specs, parsed on first use: the load replies first, so the host is not kept waiting. */
function specsOf(hosted: HostedModule): ReadonlyMap<string, ActionSpec> {
  if (hosted.specs === undefined) {
    const parsed = parseModuleMetadata(hosted.metadataJson);
    hosted.specs = parsed.ok ? parsed.metadata.actions : new Map();
  }
  return hosted.specs;
}

/** Every request but a load, answered synchronously: a decision takes no extra hop. */
function handle(message: EvaluateMessage | CallMessage | UnloadMessage): Record<string, unknown> {
  const hosted = modules.get(message.module);
  if ('unload' in message) {
    hosted?.sandbox.dispose();
    modules.delete(message.module);
    return { id: message.id };
  }
  if (hosted === undefined) return { id: message.id, error: `module ${message.module} is not loaded in this sandbox process` };
  if ('call' in message) return { id: message.id, crossing: hosted.sandbox.call(message.call.entry, message.call.args, message.call.timeLimitMs) };
  const { action, ctxJson, only, derive, failed = {} } = message.evaluate;
  const spec = specsOf(hosted).get(action);
  if (spec === undefined) return { id: message.id, error: `no action ${action} in module ${message.module}` };
  if (only === undefined) return { id: message.id, evaluation: evaluateAction(hosted.sandbox, spec, ctxJson) };
  const subset = {
    ...spec,
    computed: spec.computed.slice(0, derive ?? spec.computed.length),
    rules: spec.rules.filter((rule) => only.includes(rule.id)),
  };
  return { id: message.id, evaluation: evaluateStepwise(hosted.sandbox, subset, ctxJson, failed) };
}

// The host went away: nothing left to serve.
process.on('disconnect', () => process.exit(0));
pipe.on('end', () => process.exit(0));

// A spare whose host went away while it booted has nobody to tell.
if (process.connected) process.send!(READY_MESSAGE);
