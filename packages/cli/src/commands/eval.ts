import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkModuleBinding, decide, loadModule, loadTrustConfig, readBundleFiles, timestampMs, verifyBundle, type BundleToLoad, type Isolation } from '@adec/runtime';
import { choiceOption, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec eval <bundle> --action <action> --context <file|-> [options]

Decides one request against a built bundle and prints the decision as JSON:
{ status, work_frame, decision_metadata }. The context is the request's supplied context,
a JSON object read from <file> or, with \`-\`, from standard input.

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

async function readContext(source: string, io: CliIo): Promise<Read<{ value: unknown }>> {
  let text: string;
  try {
    if (source === '-') {
      if (io.readStdin === undefined) return { ok: false, message: 'standard input is not available' };
      text = await io.readStdin();
    } else {
      text = await readFile(resolve(io.cwd, source), 'utf8');
    }
  } catch (error) {
    return { ok: false, message: `cannot read --context ${source}: ${(error as Error).message}` };
  }
  const name = source === '-' ? 'standard input' : source;
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `the context in ${name} is not JSON: ${(error as Error).message}` };
  }
}

function parseRequestTime(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = timestampMs(value);
  if (ms === undefined) throw new UsageError(`invalid --request-time \`${value}\`: expected an RFC 3339 timestamp such as 2026-03-01T09:00:00Z\n\n${usage}`);
  return ms;
}
