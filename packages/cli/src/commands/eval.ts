import { decide, type Isolation } from '@adec/runtime';
import { choiceOption, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { SYSTEM_VALUE_OPTIONS, systemValues } from '../system-value-options.js';
import { withLocalModule } from '../local-module.js';

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
  --isolation auto|process|in-process   where the sandbox runs (default: auto: in process for a
                             bundle approved after a rebuild whose code verifies, given --trust)
Exit 0 with a decision (whatever its status); 1 when the bundle, the context file or the
action is wrong; 2 on usage errors.`;

/** `adec eval <bundle>`: one decision, exactly as a runtime host would make it. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, values } = parseBundleCommand(args, usage, {
    action: { type: 'string' },
    context: { type: 'string' },
    trust: { type: 'string' },
    ...SYSTEM_VALUE_OPTIONS,
    isolation: { type: 'string', default: 'auto' },
  });
  const action = requiredOption(values, 'action', usage);
  const contextSource = requiredOption(values, 'context', usage);
  const isolation = choiceOption<Isolation>(values, 'isolation', ['auto', 'process', 'in-process'], usage);
  const system = systemValues(values, usage);
  const local = { command: 'eval', bundleDir: dir, trustPath: typeof values['trust'] === 'string' ? values['trust'] : undefined, input: { source: contextSource, option: '--context', what: 'the context' }, isolation };
  return withLocalModule(local, io, async (module, context, fail) => {
    const result = await decide(module, { action, context }, system);
    if (!result.ok) return fail(`${result.error.code}: ${result.error.message}`);
    io.stdout.write(`${JSON.stringify(result.decision, null, 2)}\n`);
    return EXIT.ok;
  });
}
