import { resolve } from 'node:path';
import { checkModuleBinding, decide, DEFAULT_REQUEST_LIMITS, loadModule, loadTrustConfig, parseRequestJson, readBundleFiles, readRegularFile, timestampMs, verifyBundle, type BundleToLoad, type Isolation, type RequestJsonProblemCode } from '@adec/runtime';
import { choiceOption, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec eval <bundle> --action <action> --context <file|-> [options]

Decides one request against a built bundle and prints the decision as JSON:
{ status, work_frame, decision_metadata }. The context is the request's supplied context,
a JSON object read from <file> or, with \`-\`, from standard input, strictly: UTF-8, no key
twice in one object, at most 1 MiB and 32 levels deep (else exit 1 naming the position).

options:
  --trust <trust.json>       verify signature and approval as a host does (without it, only
                             the bundle's hash is checked against its manifest)
  --request-time <RFC 3339>  the system request_time (default: now), to replay a decision
  --request-id <id>          the system request_id (default: a fresh UUID)
  --caller <id>              the system authenticated_caller
  --isolation process|in-process   where the sandbox runs (default: process)
Exit 0 with a decision (whatever its status); 1 when the bundle, the context file or the
action is wrong; 2 on usage errors.`;

/** `adec eval <bundle>`: one decision, exactly as a runtime host would make it. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, values } = parseBundleCommand(args, usage, {
    action: { type: 'string' },
    context: { type: 'string' },
    trust: { type: 'string' },
    'request-time': { type: 'string' },
    'request-id': { type: 'string' },
    caller: { type: 'string' },
    isolation: { type: 'string', default: 'process' },
  });
  const action = requiredOption(values, 'action', usage);
  const contextSource = requiredOption(values, 'context', usage);
  const isolation = choiceOption<Isolation>(values, 'isolation', ['process', 'in-process'], usage);
  const requestTime = parseRequestTime(values['request-time']);
  const fail = (message: string): ExitCode => {
    io.stderr.write(`adec eval: ${message}\n`);
    return EXIT.inputErrors;
  };

  const bundle = await readVerifiedBundle(dir, typeof values['trust'] === 'string' ? values['trust'] : undefined, io);
  if (!bundle.ok) return fail(bundle.message);
  const context = await readContext(contextSource, io);
  if (!context.ok) return fail(context.message);

  const loaded = await loadModule(bundle.bundle, { isolation });
  if (!loaded.ok) return fail(`${loaded.code}: ${loaded.message}`);
  try {
    const result = await decide(loaded.module, { action, context: context.value }, {
      ...(requestTime !== undefined && { requestTime }),
      ...(typeof values['request-id'] === 'string' && { requestId: values['request-id'] }),
      ...(typeof values['caller'] === 'string' && { authenticatedCaller: values['caller'] }),
    });
    if (!result.ok) return fail(`${result.error.code}: ${result.error.message}`);
    io.stdout.write(`${JSON.stringify(result.decision, null, 2)}\n`);
    return EXIT.ok;
  } finally {
    await loaded.module.evaluator.dispose();
  }
}

type Read<T> = { ok: true } & T | { ok: false; message: string };

async function readVerifiedBundle(dir: string, trustPath: string | undefined, io: CliIo): Promise<Read<{ bundle: BundleToLoad }>> {
  const files = await readBundleFiles(dir, io.cwd);
  if (!files.ok) return { ok: false, message: `${files.failure.code}: ${files.failure.message}` };
  if (trustPath === undefined) {
    const bound = checkModuleBinding(files.files.manifest, files.files.bundle);
    if (!bound.ok) return { ok: false, message: `${bound.failure.code}: ${bound.failure.message}` };
    io.stderr.write('adec eval: note: the bundle was not verified against a trust configuration (pass --trust to verify it)\n');
    return { ok: true, bundle: bound.module };
  }
  const trust = await loadTrustConfig(trustPath, io.cwd);
  if (!trust.ok) return { ok: false, message: trust.message };
  const verified = verifyBundle(files.files, trust.trust);
  return verified.ok ? { ok: true, bundle: verified.bundle } : { ok: false, message: `${verified.failure.code}: ${verified.failure.message}` };
}

/**
 * The context, read as a host reads a request's text: a regular file (or standard input) of at
 * most `maxRequestBytes`, strict JSON (runtime README "Reading a request's text"), refused with
 * the position of invalid UTF-8, a repeated key or a syntax error.
 */
async function readContext(source: string, io: CliIo): Promise<Read<{ value: unknown }>> {
  const name = source === '-' ? 'standard input' : source;
  let bytes: Uint8Array;
  if (source === '-') {
    if (io.readStdin === undefined) return { ok: false, message: 'standard input is not available' };
    try {
      bytes = await io.readStdin();
    } catch (error) {
      return { ok: false, message: `cannot read standard input: ${(error as Error).message}` };
    }
  } else {
    const file = await readRegularFile(resolve(io.cwd, source), { maxBytes: DEFAULT_REQUEST_LIMITS.maxRequestBytes, followSymlinks: true });
    if (file.ok) bytes = file.bytes;
    else if (file.code === 'FILE_TOO_LARGE') return { ok: false, message: `the context in ${name} is over a request limit: it ${file.problem} (maxRequestBytes)` };
    else return { ok: false, message: `cannot read --context ${source}: it ${file.problem}` };
  }
  const parsed = parseRequestJson(bytes);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, message: `the context in ${name} ${REFUSAL[parsed.problem.code]}: ${parsed.problem.message}` };
}

const REFUSAL: Readonly<Record<RequestJsonProblemCode, string>> = {
  REQUEST_LIMIT: 'is over a request limit',
  NOT_UTF8: 'is not UTF-8',
  NOT_JSON: 'is not JSON',
  DUPLICATE_KEY: 'repeats a key',
};

function parseRequestTime(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = timestampMs(value);
  if (ms === undefined) throw new UsageError(`invalid --request-time \`${value}\`: expected an RFC 3339 timestamp such as 2026-03-01T09:00:00Z\n\n${usage}`);
  return ms;
}
