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
 * Protocol: messages (frames.ts: a JSON header, then a payload) on the frame pipe, each request
 * answered by one reply with its id, strictly in the order received, after the process
 * announces that it has booted with READY_MESSAGE on its IPC channel (sandbox-process-pool.ts):
 *   → { id, module, load: { memoryLimitMb, filename, extensions? } } + the bundle's source
 *                                                 ← { id, metadata } | { id, error }
 *   → { id, module, batch: [action, …] } + one context per line
 *                                                 ← { id, answers: true } + the isolate's answer
 *                                                 | { id, evaluations: [ActionEvaluation, …] }
 *   → { id, module, evaluate: { action, only, derive?, failed? } } + the context
 *                                                 ← { id, evaluation }
 *   → { id, module, call: { entry, args, timeLimitMs } }   ← { id, crossing }
 *   → { id, module, unload: true }                         ← { id }
 *   → { id, memory: true }                      ← { id, memory: SandboxProcessMemory }
 * A batch is one or more decisions of one module, evaluated in one crossing (more only when its
 * predicates run long: evaluate-action.ts); its answer is the
 * isolate's own JSON array, passed through unparsed for the host to decode and check (the
 * compact encoding: a state character per rule, no rule ids). Only when that crossing fails is
 * each decision evaluated on its own, and the full evaluations sent. `evaluate` runs exactly the
 * rules `only` names, one crossing each, after the first `derive` derivations, with the `failed`
 * ones treated as failed (crash attribution). The process reads the action specs from each
 * module once, so a request carries only its contexts.
 */
import { Socket } from 'node:net';
import { FRAME_FD, FrameReader, readMessage, writeMessage } from './frames.js';
import { evaluateAction, evaluateBatch, evaluateStepwise } from './evaluate-action.js';
import { blankIsolate, IsolateSandbox, type BlankIsolate } from './isolate-sandbox.js';
import { parseModuleMetadata, type ActionSpec } from '../module/module-metadata.js';
import { measureMemory } from './sandbox-memory.js';
import { READY_MESSAGE } from './sandbox-process-pool.js';

interface Addressed {
  readonly id: number;
  /** The host's name for the module (unique per loaded module). */
  readonly module: string;
}

/** Its payload: the bundle's source. */
export interface LoadMessage extends Addressed {
  readonly load: { readonly memoryLimitMb: number; readonly filename: string; readonly extensions?: readonly string[] };
}

/** The action of each decision; its payload: their contexts, one per line. */
export interface BatchMessage extends Addressed {
  readonly batch: readonly string[];
}

/** Its payload: the context. */
export interface EvaluateMessage extends Addressed {
  readonly evaluate: {
    readonly action: string;
    /** Run exactly these rules, one crossing each (crash attribution). */
    readonly only: readonly string[];
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

/** The process's memory, for no module in particular. */
export interface MemoryMessage {
  readonly id: number;
  readonly memory: true;
}

export type SandboxRequest = LoadMessage | BatchMessage | EvaluateMessage | CallMessage | UnloadMessage | MemoryMessage;

interface HostedModule {
  readonly sandbox: IsolateSandbox;
  readonly metadataJson: string;
  specs?: ReadonlyMap<string, ActionSpec>;
}

const DEFAULT_MEMORY_LIMIT_MB = Number(process.argv[2]);
const pipe = new Socket({ fd: FRAME_FD, readable: true, writable: true });
const modules = new Map<string, HostedModule>();
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

function reply(body: Record<string, unknown>, payload?: string): void {
  writeMessage(pipe, body, payload);
}

new FrameReader(pipe, (frame) => {
  const { header, payload = '' } = readMessage(frame);
  const message = header as SandboxRequest;
  if ('memory' in message) reply({ id: message.id, memory: measureMemory([...modules.values()].map((hosted) => hosted.sandbox)) });
  else if ('load' in message) reply(load(message, payload));
  else if ('batch' in message) answerBatch(message, payload);
  else reply(handle(message, payload));
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

function answerBatch(message: BatchMessage, ctxLines: string): void {
  const hosted = modules.get(message.module);
  if (hosted === undefined) {
    reply(notLoaded(message));
    return;
  }
  const specs = message.batch.map((action) => specsOf(hosted).get(action));
  if (!specs.every((spec) => spec !== undefined)) {
    reply({ id: message.id, error: `an action of the batch is not in module ${message.module}` });
    return;
  }
  const ctxJsons = ctxLines.split('\n');
  const answers = evaluateBatch(hosted.sandbox, specs, ctxJsons);
  if (answers !== undefined) {
    reply({ id: message.id, answers: true }, answers);
    return;
  }
  // A crossing failed (memory ran out): each decision on its own; a batch of one goes straight
  // to the attribution pass, which its own crossing would reach too.
  const evaluations = specs.map((spec, i) => (specs.length === 1 ? evaluateStepwise : evaluateAction)(hosted.sandbox, spec, ctxJsons[i]!));
  reply({ id: message.id, evaluations });
}

function notLoaded(message: Addressed): Record<string, unknown> {
  return { id: message.id, error: `module ${message.module} is not loaded in this sandbox process` };
}

/** Every other request, answered synchronously: a decision takes no extra hop. */
function handle(message: EvaluateMessage | CallMessage | UnloadMessage, ctxJson: string): Record<string, unknown> {
  const hosted = modules.get(message.module);
  if ('unload' in message) {
    hosted?.sandbox.dispose();
    modules.delete(message.module);
    return { id: message.id };
  }
  if (hosted === undefined) return notLoaded(message);
  if ('call' in message) return { id: message.id, crossing: hosted.sandbox.call(message.call.entry, message.call.args, message.call.timeLimitMs) };
  const { action, only, derive, failed = {} } = message.evaluate;
  const spec = specsOf(hosted).get(action);
  if (spec === undefined) return { id: message.id, error: `no action ${action} in module ${message.module}` };
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
