/**
 * Test helpers that make a checker test read like the behaviour it pins down:
 * `expectDiagnostics(source, [['ADEC3006', 7, 28, '"chlid" is not a member of …', 'did you mean "child"?']])`.
 */
import { expect } from 'vitest';
import type { Diagnostic } from '@adec/diagnostics';
import { parseSource } from '@adec/grammar';
import { checkWorld } from '../../src/check/check-world.js';
import type { CheckedWorld } from '../../src/model/index.js';

/** A world header to put in front of sources that do not test the header. */
export const HEADER = 'world { org "acme" domain "hr.benefits" version "1.0.0" }\n';

export const FILE = 'world.adec';

/** Parses (expecting no syntax errors) and checks one file. */
export function check(source: string): { world?: CheckedWorld; diagnostics: Diagnostic[] } {
  const parsed = parseSource(FILE, source);
  expect(parsed.diagnostics.map(render), 'the test source must parse cleanly').toEqual([]);
  return checkWorld([parsed.file]);
}

/** Checks several files as one world. */
export function checkFiles(files: Record<string, string>): { world?: CheckedWorld; diagnostics: Diagnostic[] } {
  const parsed = Object.entries(files).map(([path, text]) => parseSource(path, text));
  expect(parsed.flatMap((p) => p.diagnostics).map(render)).toEqual([]);
  return checkWorld(parsed.map((p) => p.file));
}

/** The source checks with no diagnostic at all; returns the checked world. */
export function checkOk(source: string): CheckedWorld {
  const result = check(source);
  expect(result.diagnostics.map(render)).toEqual([]);
  expect(result.world).toBeDefined();
  return result.world!;
}

/** `[code, line, column, message, help?]`; help `undefined` means "no help expected". */
export type ExpectedDiagnostic = readonly [code: string, line: number, column: number, message: string, help?: string];

/** The source produces exactly these diagnostics (in order), and no world if any is an error. */
export function expectDiagnostics(source: string, expected: readonly ExpectedDiagnostic[]): Diagnostic[] {
  const result = check(source);
  expect(result.diagnostics.map(summarize)).toEqual(expected.map(([code, line, column, message, help]) => ({ code, line, column, message, help })));
  if (result.diagnostics.some((d) => d.severity === 'error')) expect(result.world).toBeUndefined();
  return result.diagnostics;
}

/** Only the diagnostics with these codes, for tests that do not care about the rest. */
export function diagnosticsWithCode(source: string, ...codes: string[]): ReturnType<typeof summarize>[] {
  return check(source)
    .diagnostics.filter((d) => codes.includes(d.code))
    .map(summarize);
}

export function summarize(d: Diagnostic) {
  return { code: d.code as string, line: d.span.line, column: d.span.column, message: d.message, help: d.help };
}

function render(d: Diagnostic): string {
  return `${d.span.file}:${d.span.line}:${d.span.column}: ${d.code}: ${d.message}`;
}

/** A world whose only action reads `context` attributes in one rule's `when`. */
export function actionWith(context: string, when: string, extra = ''): string {
  return `${HEADER}context {\n${context}\n}\naction a {\n  rule r {\n    outcome RED\n    severity t2\n    when ${when}\n    reason "refused"\n  }\n${extra}}\n`;
}
