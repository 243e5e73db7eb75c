/**
 * `adec trace verify`: checks a selection's reasoning trace on its own, with the service's
 * public key (docs/spec/contracts.md §4): its content address is its content's and a signature
 * by that key verifies. It reads a trace, or a stored decision as `GET /v1/decisions/{id}`
 * answers it (the trace is its `trace`).
 */
import { resolve } from 'node:path';
import { verifyTrace, type AddressedTrace } from '@adec/engine';
import { readKeyFile, readRegularFile } from '@adec/runtime';
import { choiceOption, parseOptions, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec trace verify <trace.json> --key <public key> [--format text|json]

verify checks a selection's reasoning trace, or a stored decision holding one (the answer of
GET /v1/decisions/{id}), against the public key of the key the service signs traces with
(adec serve --trace-key): the trace's content address must be its content's, and a signature
by that key must verify. Any field changed, added or removed fails. Exit 0 when it verifies,
1 when it does not or cannot be read.`;

/** A stored selection with its whole trace is well under this. */
const MAX_TRACE_BYTES = 16 * 1024 * 1024;

export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, values } = parseOptions(args, usage, { key: { type: 'string' }, format: { type: 'string', default: 'text' } }, ['command', 'file']);
  const [command, file] = positionals;
  if (command !== 'verify') throw new UsageError(`unknown trace command \`${command ?? ''}\`: expected verify\n\n${usage}`);
  if (file === undefined) throw new UsageError(`adec trace verify needs the trace file\n\n${usage}`);
  const format = choiceOption(values, 'format', ['text', 'json'] as const, usage);
  const key = await readKeyFile(requiredOption(values, 'key', usage), io.cwd);
  if (!key.ok) return failed(io, `${key.code}: ${key.message}`);
  const trace = await readTrace(file, io);
  if (typeof trace === 'string') return failed(io, trace);
  const verification = verifyTrace(trace, key.key, key.keyId);
  const report = verification.ok
    ? { valid: true, trace_id: trace.trace_id, decision_id: trace.decision_id, signer: verification.signer, signed_at: verification.signedAt }
    : { valid: false, trace_id: trace.trace_id, decision_id: trace.decision_id, problem: verification.problem };
  if (format === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(verification.ok ? `ok       ${trace.trace_id}: signed by ${verification.signer} at ${verification.signedAt}\n` : `INVALID  ${trace.trace_id}: ${verification.problem}\n`);
  return verification.ok ? EXIT.ok : EXIT.inputErrors;
}

function failed(io: CliIo, message: string): ExitCode {
  io.stderr.write(`adec trace: ${message}\n`);
  return EXIT.inputErrors;
}

/** The trace in `file` (or the `trace` of a stored decision), or why there is none. */
async function readTrace(file: string, io: CliIo): Promise<AddressedTrace | string> {
  const read = await readRegularFile(resolve(io.cwd, file), { maxBytes: MAX_TRACE_BYTES, followSymlinks: true });
  if (!read.ok) return `cannot read ${file}: it ${read.problem}`;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(read.bytes).toString('utf8'));
  } catch (error) {
    return `${file} is not JSON: ${(error as Error).message}`;
  }
  const trace = isObject(value) && isObject(value['trace']) ? value['trace'] : value;
  if (!isObject(trace) || typeof trace['trace_id'] !== 'string' || typeof trace['content_address'] !== 'string') return `${file} holds no reasoning trace (an object with trace_id and content_address, or a stored decision with one as its trace)`;
  return trace as unknown as AddressedTrace;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
