import type { Span } from '@adec/diagnostics';
import { decide } from '@adec/runtime';
import { loadBuiltModule } from '../built-module.js';
import { requiredOption } from '../bundle-command.js';
import { readJsonInput } from '../bundle-input.js';
import { explainDecision } from '../explain/explain-decision.js';
import { explanationJson, renderExplanation } from '../explain/render-explanation.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { parseCommand } from '../parse-command.js';
import { progress, writeJson } from '../report.js';
import { SYSTEM_VALUE_OPTIONS, systemValues } from '../system-value-options.js';
import { buildWorldOrReport } from '../world-input.js';

export const usage = `usage: adec explain <world> --action <action> --context <file|-> [options]

Builds a world in memory, decides one request exactly as \`adec eval\` does, and explains it:
for every rule of the action, matched or not, its result, and for each condition the decision
evaluated (applies_when, then when) the sub-condition that decided it (the first false part of
an \`and\`, the first true part of an \`or\`) with the values it read. The context is read as
\`adec eval\` reads it, from <file> or, with \`-\`, standard input.

options:
  --format text|json         text for a person (default), or one JSON object with the decision
  --request-time <RFC 3339>  the system request_time (default: now)
  --request-id <id>          the system request_id (default: a fresh UUID)
  --caller <id>              the system authenticated_caller
Exit 0 with an explanation (whatever the decision's status); 1 when the world has errors or the
context file or the action is wrong; 2 on usage errors.`;

/** `adec explain <world>`: one decision of a world's sources, and why, rule by rule. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { world: dir, format, values } = parseCommand(args, usage, {
    action: { type: 'string' },
    context: { type: 'string' },
    ...SYSTEM_VALUE_OPTIONS,
  });
  const actionName = requiredOption(values, 'action', usage);
  const contextSource = requiredOption(values, 'context', usage);
  const system = systemValues(values, usage);
  const fail = (message: string): ExitCode => {
    io.stderr.write(`adec explain: ${message}\n`);
    return EXIT.inputErrors;
  };

  const built = await buildWorldOrReport(dir, format, io, progress(io.stderr));
  if (built === undefined) return EXIT.inputErrors;
  const sources = built.sources;
  const action = built.world.actions.find((a) => a.name === actionName);
  if (action === undefined) return fail(`the world has no action \`${actionName}\` (actions: ${built.world.actions.map((a) => a.name).join(', ') || 'none'})`);
  const context = await readJsonInput(contextSource, '--context', 'the context', io);
  if (!context.ok) return fail(context.message);

  const loaded = await loadBuiltModule(built.artifacts);
  if (!loaded.ok) return fail(`the built module could not be loaded: ${loaded.message}`);
  try {
    const result = await decide(loaded.module, { action: action.name, context: context.value }, system);
    if (!result.ok) return fail(`${result.error.code}: ${result.error.message}`);
    const explanation = explainDecision(action, result.decision);
    const byPath = new Map(sources.files.map((file) => [file.path, file.text]));
    const text = (span: Span) => balancedText(byPath.get(span.file) ?? '', span);
    if (format === 'json') writeJson(io.stdout, explanationJson(explanation, text));
    else io.stdout.write(renderExplanation(explanation, text, new Map(action.context.map((a) => [a.name, a.type]))));
    return EXIT.ok;
  } finally {
    await loaded.module.evaluator.dispose();
  }
}

/**
 * The source under a span, with the closing parentheses it opened: the span of `not (a or b)`
 * ends where `a or b` does, since parentheses make no node of their own.
 */
function balancedText(source: string, span: Span): string {
  let end = span.endOffset;
  let open = 0;
  for (const char of source.slice(span.offset, end)) open += char === '(' ? 1 : char === ')' ? -1 : 0;
  for (; open > 0; open--) {
    const close = /^\s*\)/.exec(source.slice(end));
    if (close === null) break;
    end += close[0].length;
  }
  return source.slice(span.offset, end);
}
