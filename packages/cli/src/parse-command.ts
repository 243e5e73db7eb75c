import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { OutputFormat } from './report.js';
import { UsageError } from './usage-error.js';

type ExtraOptions = NonNullable<ParseArgsConfig['options']>;

export interface ParsedWorldCommand {
  readonly world: string;
  readonly format: OutputFormat;
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
}

/**
 * Parses `<world> [--format text|json] [extra options]`, the shape shared by the commands
 * that take a world. Anything else is a UsageError naming the problem.
 */
export function parseCommand(args: readonly string[], usage: string, extra: ExtraOptions): ParsedWorldCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { format: { type: 'string', default: 'text' }, ...extra },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) {
    throw new UsageError(`${positionals.length === 0 ? 'missing <world>' : `unexpected argument \`${positionals[1]}\``}\n\n${usage}`);
  }
  const format = values['format'];
  if (format !== 'text' && format !== 'json') {
    throw new UsageError(`invalid --format \`${format}\`: expected text or json\n\n${usage}`);
  }
  return { world: positionals[0]!, format, values };
}
