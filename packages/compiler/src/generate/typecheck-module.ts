/**
 * Type-checks a generated module in memory (pipeline step 3). A module that fails here is a
 * bug in adec's code generator, never the author's mistake: the checker already accepted the
 * world. Options match the sandbox: strict, `noUncheckedIndexedAccess`, ES2022 library only
 * (no DOM, no @types), so a generated reference to a host API fails to type-check.
 *
 * Cost: one long-lived in-memory ts-morph project is reused across calls, so the ES2022 lib
 * files are parsed and bound once per process (the document registry hands the same lib
 * SourceFiles to every new program); each call parses and checks only the module itself.
 */
import { Project, ts } from 'ts-morph';
import { forbiddenConstructsIn } from './forbidden-constructs.js';

const MODULE_FILE = '/adec/module.ts';

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
  noEmit: true,
  skipLibCheck: true,
};

let project: Project | undefined;

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

function inspectModule(source: string, staticCheck: (file: ts.SourceFile) => readonly string[]): readonly string[] {
  project ??= new Project({ useInMemoryFileSystem: true, compilerOptions: OPTIONS });
  const file = project.createSourceFile(MODULE_FILE, source, { overwrite: true });
  try {
    const program = project.getProgram().compilerObject;
    const compiled = program.getSourceFile(MODULE_FILE) ?? file.compilerNode;
    const forbidden = staticCheck(compiled);
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(compiled),
      ...program.getSemanticDiagnostics(compiled),
    ];
    return [...forbidden, ...diagnostics.filter((d) => !isNarrowedLiteralComparison(d)).map(formatDiagnostic)];
  } finally {
    // Leave the project holding only lib files, so a later call starts from the same state.
    file.delete();
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
function isNarrowedLiteralComparison(d: ts.Diagnostic): boolean {
  if (d.code !== 2367) return false;
  const types = /the types '(.+)' and '(.+)' have no overlap/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return types !== null && LITERAL_UNION.test(types[1]!) && LITERAL_UNION.test(types[2]!);
}

/** A literal type or a union of them, as TypeScript prints it. */
const LITERAL = String.raw`(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false)`;
const LITERAL_UNION = new RegExp(`^${LITERAL}(?: \\| ${LITERAL})*$`);

function formatDiagnostic(d: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (d.file === undefined || d.start === undefined) return `TS${d.code}: ${message}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${line + 1}:${character + 1} ${message} (TS${d.code})`;
}
