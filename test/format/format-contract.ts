/**
 * The formatter's contract, checked on one world at a time (test/format/*.test.ts):
 *
 * 1. idempotent: formatting the formatted text changes nothing;
 * 2. meaning-preserving: the formatted file parses to the same AST (spans aside), and the
 *    world gives the same diagnostic codes;
 * 3. comment-preserving: the same comments (the multiset of their texts; in fact in order);
 * 4. a file with a syntax error is refused with exactly the parser's diagnostics.
 */
import { checkSources, commentTexts, formatSource, type WorldSources } from '@adec/compiler';
import { parseSource } from '@adec/grammar';
import { expect } from 'vitest';

export interface FormatOutcome {
  /** The world with its formatted files (a refused file as it was). */
  readonly formatted: WorldSources;
  readonly refused: number;
  readonly changed: number;
}

/** Asserts the contract on every file of `world` and on the world as a whole. */
export function expectFormatContract(world: WorldSources, options: { readonly codes?: boolean } = {}): FormatOutcome {
  let refused = 0;
  let changed = 0;
  const files = world.files.map((file) => {
    const parsed = parseSource(file.path, file.text);
    const result = formatSource(file.path, file.text);
    const context = `${file.path}:\n${file.text}`;
    if (parsed.diagnostics.some((d) => d.severity === 'error')) {
      expect(result.ok, `a file with syntax errors must be refused: ${context}`).toBe(false);
      if (!result.ok) expect(result.diagnostics).toEqual(parsed.diagnostics);
      refused += 1;
      return file;
    }
    if (!result.ok) throw new Error(`formatting failed: ${result.diagnostics.map((d) => d.message).join('; ')}\n${context}`);
    if (result.changed) changed += 1;
    expect(result.changed).toBe(result.text !== file.text);

    const again = formatSource(file.path, result.text);
    expect(again.ok && again.text, `not idempotent: ${context}`).toBe(result.text);
    expect(canonicalAst(parseSource(file.path, result.text).file), `the AST changed: ${context}`).toBe(canonicalAst(parsed.file));
    expect(parseSource(file.path, result.text).diagnostics).toEqual([]);
    expect(sorted(commentTexts(result.text)), `comments changed: ${context}`).toEqual(sorted(commentTexts(file.text)));
    return { path: file.path, text: result.text };
  });
  const formatted = { root: world.root, files };
  if (options.codes !== false && changed > 0) {
    expect(diagnosticCodes(formatted), `diagnostics changed in ${world.root}`).toEqual(diagnosticCodes(world));
  }
  return { formatted, refused, changed };
}

export function diagnosticCodes(world: WorldSources): string[] {
  return checkSources(world).diagnostics.map((d) => `${d.severity} ${d.code}`).sort();
}

function sorted(items: readonly string[]): string[] {
  return [...items].sort();
}

/**
 * The AST as canonical JSON without positions (`span`, `operatorSpan`), written without
 * recursion so an expression thousands deep compares too.
 */
export function canonicalAst(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next instanceof Raw) {
      out.push(next.text);
    } else if (Array.isArray(next)) {
      const parts: unknown[] = [new Raw('[')];
      next.forEach((item, i) => parts.push(...(i > 0 ? [new Raw(',')] : []), item));
      parts.push(new Raw(']'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else if (next !== null && typeof next === 'object') {
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => key !== 'span' && key !== 'operatorSpan' && record[key] !== undefined)
        .sort();
      const parts: unknown[] = [new Raw('{')];
      keys.forEach((key, i) => parts.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`), record[key]));
      parts.push(new Raw('}'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else {
      out.push(next === undefined ? 'undefined' : Number.isNaN(next) ? 'NaN' : JSON.stringify(next));
    }
  }
  return out.join('');
}

class Raw {
  constructor(readonly text: string) {}
}
