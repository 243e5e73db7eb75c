/**
 * Shared by the tests of the verifier of generated code: bundles the compiler builds, and a
 * verdict rendered with the line it points at, so a failing test shows the code it is about.
 */
import { buildWorld, type WorldSources } from '@adec/compiler';
import { verifyGeneratedCode, type GeneratedCodeVerdict } from '@adec/runtime';

/** The bundle of a world that builds, or undefined for one that does not (with errors). */
export async function bundleOf(sources: WorldSources): Promise<string | undefined> {
  const built = await buildWorld(sources);
  return built.artifacts?.bundle;
}

/** A refusal as `line:column: problem` and the line's text around the column, or `accepted`. */
export function describeVerdict(bundle: string, verdict: GeneratedCodeVerdict = verifyGeneratedCode(bundle)): string {
  if (verdict.ok) return 'accepted';
  const text = bundle.split('\n')[verdict.line - 1] ?? '';
  const from = Math.max(0, verdict.column - 60);
  return `${verdict.line}:${verdict.column}: ${verdict.problem}\n  ${text.slice(from, verdict.column + 60)}\n  ${' '.repeat(verdict.column - 1 - from)}^`;
}

/** `bundle` with `text` put in place of `bundle.slice(start, end)`. */
export function spliced(bundle: string, start: number, end: number, text: string): string {
  return `${bundle.slice(0, start)}${text}${bundle.slice(end)}`;
}

/** Where the function of rule `id` stands in `_RULE_FUNCTIONS` (one line, as esbuild prints it). */
export function ruleFunctionSpan(bundle: string, id: string): { readonly start: number; readonly end: number } {
  const registry = bundle.indexOf('var _RULE_FUNCTIONS = {');
  const key = `\n    ${id}: `;
  const at = bundle.indexOf(key, registry);
  if (registry < 0 || at < 0) throw new Error(`no rule function \`${id}\` in the bundle`);
  const start = at + key.length;
  const lineEnd = bundle.indexOf('\n', start);
  return { start, end: bundle[lineEnd - 1] === ',' ? lineEnd - 1 : lineEnd };
}

/** The offset of a verdict's line and column (both from 1). */
export function offsetOf(bundle: string, line: number, column: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) offset = bundle.indexOf('\n', offset) + 1;
  return offset + column - 1;
}
