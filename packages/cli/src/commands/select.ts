import { randomUUID } from 'node:crypto';
import { UUID_V4_PATTERN } from '@adec/contracts';
import { cloudLlmExecutor, cloudLlmFromEnvironment, prepareSelection, runCycle, SELECTION_EXTENSION, type CycleRequest } from '@adec/engine';
import { timestampMs, type Isolation } from '@adec/runtime';
import { choiceOption, parseBundleCommand, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { withLocalModule } from '../local-module.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec select <bundle> --request <file|-> [options]

Runs the whole ADE selection cycle (docs/spec/selection.md: state, guardrails, score and rank, then the
skill under its Skill Execution Contract, validation and fallback) against a built bundle, and
prints the DecisionResponse of docs/spec/selection.md §3.9 as JSON. The request is a JSON object read from <file> or,
with \`-\`, from standard input: { scenario, signals?, actions, conditions?,
execution_mode_override? }, the same as the body of POST /v1/select without the routing key.
LLM skills ask the model configured by ADEC_LLM_URL, ADEC_LLM_MODEL and ADEC_LLM_API_KEY; with
none, they run their deterministic fallback (flagged in \`execution\`).

options:
  --trust <trust.json>       verify signature and approval as a host does
  --trace                    print the full trace (every stage's artifact) instead
  --decision-id <uuid>       the decision id, a UUID v4 (default: a fresh one), to replay a decision
  --timestamp <RFC 3339>     the decision's timestamp (default: now)
  --isolation auto|process|in-process   where the sandbox runs (default: auto: in process for a
                             bundle approved after a rebuild whose code verifies, given --trust)
Exit 0 with a selection; when no candidate is eligible (or scoring failed) the trace is
printed, the reason goes to standard error, and the exit code is 1; 2 on usage errors.`;

/** `adec select <bundle>`: one selection, exactly as the decision service would make it. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { bundle: dir, values } = parseBundleCommand(args, usage, {
    request: { type: 'string' },
    trust: { type: 'string' },
    trace: { type: 'boolean' },
    'decision-id': { type: 'string' },
    timestamp: { type: 'string' },
    isolation: { type: 'string', default: 'auto' },
  });
  const source = requiredOption(values, 'request', usage);
  const isolation = choiceOption<Isolation>(values, 'isolation', ['auto', 'process', 'in-process'], usage);
  const timestamp = parseTimestamp(values['timestamp']);
  const decisionId = parseDecisionId(values['decision-id']);
  const local = { command: 'select', bundleDir: dir, trustPath: typeof values['trust'] === 'string' ? values['trust'] : undefined, input: { source, option: '--request', what: 'the request' }, isolation, extensions: [SELECTION_EXTENSION], prepare: prepareSelection };
  return withLocalModule(local, io, async (module, request, fail) => {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) return fail('the request must be a JSON object: { scenario, signals?, actions, conditions?, execution_mode_override? }');
    const llm = cloudLlmFromEnvironment();
    const result = await runCycle(module, request as CycleRequest, {
      decisionId,
      timestamp,
      executors: llm === undefined ? [] : [cloudLlmExecutor(llm)],
    });
    if (!result.ok) {
      const problems = result.error.problems.map((problem) => `\n  ${problem.path}: ${problem.message}`).join('');
      return fail(`${result.error.code}: ${result.error.message}${problems}`);
    }
    const shown = values['trace'] === true || result.response === null ? result.trace : result.response;
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    if (result.outcome === 'decided') return EXIT.ok;
    io.stderr.write(`adec select: ${result.outcome === 'no_eligible_actions' ? 'NO_ELIGIBLE_ACTIONS: no candidate passed every guardrail' : 'SCORING_FAILED: an objective or tie-break failed (see the trace\'s errors)'}\n`);
    return EXIT.inputErrors;
  });
}

const DECISION_ID = new RegExp(UUID_V4_PATTERN, 'i');

/** A decision id is a UUID v4, as the service generates them (docs/spec/selection.md 3.1.2). */
function parseDecisionId(value: string | boolean | undefined): string {
  if (typeof value !== 'string') return randomUUID();
  if (!DECISION_ID.test(value)) throw new UsageError(`invalid --decision-id \`${value}\`: a decision id is a UUID v4, such as ${randomUUID()}\n\n${usage}`);
  return value.toLowerCase();
}

function parseTimestamp(value: string | boolean | undefined): string {
  if (typeof value !== 'string') return new Date().toISOString();
  const ms = timestampMs(value);
  if (ms === undefined) throw new UsageError(`invalid --timestamp \`${value}\`: expected an RFC 3339 timestamp such as 2026-03-01T09:00:00Z\n\n${usage}`);
  return new Date(ms).toISOString();
}
