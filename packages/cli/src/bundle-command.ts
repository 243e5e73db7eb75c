import { parseArgs, type ParseArgsConfig } from 'node:util';
import { checkWorldIdentity, validate, type JsonObject, type WorldIdentity } from '@adec/abi';
import type { OutputFormat } from './report.js';
import { UsageError } from './usage-error.js';

/**
 * What the trust commands (keygen, sign, approve, verify) share: parsing their options with
 * usage errors that name the problem, and naming a bundle the way `adec build` does.
 */

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Readonly<Record<string, string | boolean | undefined>>;

/**
 * Parses options, the `positionals` (each named in usage errors when missing) and then at most
 * `optional` more.
 */
export function parseOptions(
  args: readonly string[],
  usage: string,
  options: Options,
  positionals: readonly string[],
  optional = 0,
): { readonly positionals: readonly string[]; readonly values: Values } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
  const extra = parsed.positionals[positionals.length + optional];
  if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\`\n\n${usage}`);
  const missing = positionals[parsed.positionals.length];
  if (missing !== undefined) throw new UsageError(`missing ${missing}\n\n${usage}`);
  return { positionals: parsed.positionals, values: parsed.values as Values };
}

/** `<bundle> [--format text|json] [options]`: the shape of sign, approve and verify. */
export function parseBundleCommand(
  args: readonly string[],
  usage: string,
  options: Options,
): { readonly bundle: string; readonly format: OutputFormat; readonly values: Values } {
  const { positionals, values } = parseOptions(args, usage, { format: { type: 'string', default: 'text' }, ...options }, ['<bundle>']);
  const format = choiceOption(values, 'format', ['text', 'json'] as const, usage);
  return { bundle: positionals[0]!, format, values };
}

/** The value of an option that must be given. */
export function requiredOption(values: Values, name: string, usage: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name}\n\n${usage}`);
  return value;
}

/** The value of an option that must be one of `choices`. */
export function choiceOption<Choice extends string>(values: Values, name: string, choices: readonly Choice[], usage: string): Choice {
  const value = values[name];
  if (!choices.includes(value as Choice)) {
    throw new UsageError(`invalid --${name} \`${String(value)}\`: expected ${choices.join(' or ')}\n\n${usage}`);
  }
  return value as Choice;
}

/** `acme/hr.benefits@1.4.0 (world benefits)`: a world version as `adec build` and the trust commands name it. */
export function worldLabel(world: WorldIdentity): string {
  return `${world.org}/${world.domain}@${world.version} (world ${world.world})`;
}

/**
 * A bundle as `adec build` names it, from its manifest's `world` read as a world identity
 * (@adec/abi); the directory when the manifest has no usable `world` (an ABI 1 manifest may not
 * name its world id).
 */
export function bundleLabel(manifest: JsonObject, dir: string): string {
  const world = validate(checkWorldIdentity, manifest['world']);
  return world.ok ? worldLabel(world.value) : `\`${dir}\``;
}
