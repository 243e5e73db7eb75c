/**
 * What a rule's `reason` can read as, for tests that expect a reason: the template's literal
 * text around its interpolations, which may read as anything.
 */
import type { TemplateString } from '@adec/grammar';

/**
 * Whether `template` reads as `text` for some values of its interpolations: its literal runs
 * appear in `text` in order, the first at the start and the last at the end. An interpolation
 * may read as any text, even none, so this never refuses a reason the rule could give.
 */
export function templateCanRead(template: TemplateString, text: string): boolean {
  const runs = literalRuns(template);
  if (runs.length === 1) return runs[0] === text;
  const first = runs[0]!;
  const last = runs.at(-1)!;
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  // Finding each middle run at its earliest place leaves the most room for the ones after it.
  let at = first.length;
  const end = text.length - last.length;
  for (const run of runs.slice(1, -1)) {
    const found = text.indexOf(run, at);
    if (found < 0 || found + run.length > end) return false;
    at = found + run.length;
  }
  return true;
}

/** The template as its author reads it, each interpolation shown as `{…}`. */
export function templateOutline(template: TemplateString): string {
  return literalRuns(template).join('{…}');
}

/** The literal text before, between and after the interpolations: one more run than interpolations. */
function literalRuns(template: TemplateString): string[] {
  const runs: string[] = [];
  let run = '';
  for (const part of template.parts) {
    if (part.kind === 'TemplateText') {
      run += part.text;
    } else {
      runs.push(run);
      run = '';
    }
  }
  runs.push(run);
  return runs;
}
