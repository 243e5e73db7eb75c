/**
 * Type-checks a generated module in memory (pipeline step 3). A module that fails here is a
 * bug in adec's code generator, never the author's mistake: the checker already accepted the
 * world. The program and its options are module-program.ts's.
 */
import type { Diagnostic } from 'typescript-native/unstable/sync';
import type { SourceFile } from 'typescript-native/unstable/ast';
import { forbiddenConstructsIn } from './forbidden-constructs.js';
import { MODULE_FILE, moduleProgram } from './module-program.js';

/** `line:col message` for each problem, in position order; empty when the module is clean. */
export function typecheckModule(source: string): readonly string[] {
  return inspectModule(source, () => []);
}

/**
 * Everything the build asks of a generated module before bundling it: no forbidden construct
 * and no type error. The module is parsed once for both checks.
 */
export function verifyGeneratedModule(source: string): readonly string[] {
  return inspectModule(source, forbiddenConstructsIn);
}

/** The checker runs in another process: a failure of it at any step is reported, not thrown. */
function inspectModule(source: string, staticCheck: (file: SourceFile) => readonly string[]): readonly string[] {
  try {
    const program = moduleProgram(source);
    const forbidden = staticCheck(program.sourceFile);
    const diagnostics = program.diagnostics().filter((d) => !isNarrowedLiteralComparison(d));
    return [...forbidden, ...diagnostics.map((d) => formatDiagnostic(d, program.sourceFile))];
  } catch (error) {
    return [`the TypeScript checker could not run: ${(error as Error).message}`];
  }
}

/**
 * TS2367 between literal types (`'"child"'` and `'"spouse"'`, or a narrowed union such as
 * `'"bronze" | "gold"'` and `'"silver"'`) is TypeScript's narrowing noticing a comparison
 * that is always false, as in `relationship == "child" and relationship == "spouse"`. The
 * world language allows such a condition (the analysis warns about it, ADEC5002), so the
 * module must compile; a comparison of unrelated base types (`number` with `string`), which
 * would be a generator bug, is still reported.
 */
function isNarrowedLiteralComparison(d: Diagnostic): boolean {
  if (d.code !== 2367) return false;
  const types = /the types '(.+)' and '(.+)' have no overlap/.exec(d.text);
  return types !== null && LITERAL_UNION.test(types[1]!) && LITERAL_UNION.test(types[2]!);
}

/** A literal type or a union of them, as TypeScript prints it. */
const LITERAL = String.raw`(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false)`;
const LITERAL_UNION = new RegExp(`^${LITERAL}(?: \\| ${LITERAL})*$`);

function formatDiagnostic(d: Diagnostic, file: SourceFile): string {
  const message = flattenMessage(d, '');
  if (d.fileName === undefined) return `TS${d.code}: ${message}`;
  if (d.fileName !== MODULE_FILE) return `${d.fileName}: ${message} (TS${d.code})`;
  const { line, character } = file.getLineAndCharacterOfPosition(d.pos);
  return `${line + 1}:${character + 1} ${message} (TS${d.code})`;
}

/** A message and its chain of explanations, each level indented two more spaces (as `tsc` prints them). */
function flattenMessage(d: Diagnostic, indent: string): string {
  return [d.text, ...(d.messageChain ?? []).map((next) => `\n${indent}  ${flattenMessage(next, `${indent}  `)}`)].join('');
}
