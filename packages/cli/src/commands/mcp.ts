import { serveDecideToolOverStdio, startDecisionHost, TokenVerifier, tokenCaller } from '@adec/server';
import { parseOptions } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { hostConfig, loadDeployment, readServeSettings, settingOptions, shownLocation } from '../serve/deployment.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec mcp --token <jwt> [--config <file.json>] [options]

Serves the decide operation as the MCP tool \`decide\` on standard input and output, for a
local agent that starts this command as its MCP server. It is adec serve without HTTP: the
same signed, approved bundles, token issuer and audit store, and every decision committed to
the audit store before it is answered. (adec serve offers the same tool over HTTP at /v1/mcp.)

  --token <jwt>   the agent's token (or ADEC_TOKEN): every decision is made for its org and
                  recorded with its caller. It is verified at start (adec mcp exits 1 with the
                  reason when it does not verify) and again before each call.

Every option of adec serve (adec serve --help) is taken the same way: flags, then ADEC_*
variables, then the --config file. --host and --port are accepted and unused, so the two
commands can share a config file. Logs are JSON lines on standard error: standard output
carries only the protocol. adec mcp stops when its standard input ends, or on SIGTERM or
SIGINT, once the decisions in flight are recorded.`;

/** `adec mcp`: the decide tool over stdio, until the agent closes its input or a signal stops it. */
export async function run(args: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process): Promise<ExitCode> {
  const { values } = parseOptions(args, usage, settingOptions('token'), []);
  const settings = await readServeSettings(values, io, usage);
  const token = typeof values['token'] === 'string' ? values['token'] : process.env['ADEC_TOKEN'];
  if (token === undefined || token === '') throw new UsageError(`missing --token (or ADEC_TOKEN): the token of the agent the tool decides for\n\n${usage}`);
  const deployment = await loadDeployment(settings, io);
  if (!deployment.ok) return fail(io, deployment.message);
  // Checked before anything is started or opened: a token that cannot decide changes nothing.
  const caller = tokenCaller(new TokenVerifier(deployment.auth), token);
  const verified = await caller();
  if (!verified.ok) return fail(io, `the token does not verify: ${verified.error.code}: ${verified.error.message}`);
  const started = await startDecisionHost({ ...hostConfig(settings, deployment), listen: false, logger: { level: settings.logLevel, stream: process.stderr } });
  if (!started.ok) return fail(io, `${started.code}: ${started.message}`);
  const { host } = started;
  const tool = await serveDecideToolOverStdio({ service: { decide: (who, body) => host.service.decide(who, body), select: (who, body) => host.selections.select(who, body) }, caller });
  host.app.log.info({ org: verified.value.tenant, subject: verified.value.subject, modules: settings.modules, audit: shownLocation(settings.audit) }, 'adec mcp is ready');
  const stop = (signal: string) => {
    host.app.log.info({ signal }, 'adec mcp is stopping: recording the decisions in flight and flushing the audit store');
    void tool.close();
  };
  // `on`, not `once`: a second signal must not kill a process that is recording decisions.
  signals.on('SIGTERM', () => stop('SIGTERM'));
  signals.on('SIGINT', () => stop('SIGINT'));
  await tool.closed;
  await host.close();
  return EXIT.ok;
}

function fail(io: CliIo, message: string): ExitCode {
  io.stderr.write(`adec mcp: ${message}\n`);
  return EXIT.inputErrors;
}
