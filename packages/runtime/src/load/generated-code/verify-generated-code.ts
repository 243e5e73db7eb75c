/**
 * The load-time verifier of generated code (issue 29): whether a bundle holds only what the
 * compiler's code generator and esbuild can emit, so that a host may run it in its own process.
 * The world language cannot express a fatal allocation, a loop or a reach for a global; only
 * hand-written JavaScript can, and this finds any.
 *
 * An allowlist by position, over the bundle parsed with acorn:
 *
 * * printable ASCII and newlines only (a bundle's strings, names and comments are escaped to
 *   ASCII by the compiler and esbuild), so no character can read one way to the verifier and
 *   another to V8;
 * * `//` comments only: no `/* *\/`, and no HTML-like `<!--` or `-->`;
 * * one statement, `var __adec_module = (() => { … })();`, whose body is module-statements.ts.
 *
 * Pure and synchronous; never throws: a syntax error, a nesting too deep to walk, even a bug of
 * the verifier is a refusal. Line and column (both from 1) are computed for the refusal only.
 *
 * The known forms (the helper library's hashes, esbuild's prelude) are @adec/abi's
 * bundle-forms.generated.ts: after a change to the helper library or esbuild, run
 * `npm run build && node scripts/generate-bundle-forms.mjs` (a test fails until then).
 *
 * Cost, on the 1,000-rule synthetic world's bundle (465 KB; 2 shared cores at load 4, medians of
 * 5 fresh processes): the first call 400 ms (acorn's parse alone 380 ms), warm 75 ms (the parse
 * alone 57 ms), importing this module 75 ms (acorn alone 16 ms; the rest is @adec/abi, which a
 * host has loaded already). Almost all of it is acorn's: run it off a decision's path, once per
 * module hash.
 */
import { BUNDLE_GLOBAL_NAME } from '@adec/abi';
import { getLineInfo, parse, type Program } from 'acorn';
import { isWrittenPlainly } from './member-names.js';
import { checkModuleStatements } from './module-statements.js';
import { notGenerated, refusal, type Refusal } from './refusal.js';

export type GeneratedCodeVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** What is not generated code, naming the node: "a `WhileStatement` is not generated code". */
      readonly problem: string;
      readonly line: number;
      readonly column: number;
    };

const ACCEPTED: GeneratedCodeVerdict = Object.freeze({ ok: true });

/** The first character a bundle never holds: anything but printable ASCII and `\n`. */
const UNGENERATED_CHARACTER = /[^\n\x20-\x7e]/;

export function verifyGeneratedCode(source: string): GeneratedCodeVerdict {
  let found: Refusal | undefined;
  try {
    found = checkBundle(source);
  } catch (error) {
    // A nesting deeper than the stack (acorn and the grammar recurse), or a bug here: never an acceptance.
    found = refusal(0, error instanceof RangeError ? 'the code nests too deeply to verify' : `the verifier failed: ${String(error)}`);
  }
  if (found === undefined) return ACCEPTED;
  const offset = Math.min(Math.max(found.offset, 0), source.length);
  const { line, column } = getLineInfo(source, offset);
  return { ok: false, problem: found.problem, line, column: column + 1 };
}

function checkBundle(source: string): Refusal | undefined {
  const character = UNGENERATED_CHARACTER.exec(source);
  if (character !== null) {
    const code = character[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return refusal(character.index, `the character U+${code} is not generated code (a bundle is printable ASCII)`);
  }
  let comment: Refusal | undefined;
  let program: Program;
  try {
    program = parse(source, {
      ecmaVersion: 2022,
      sourceType: 'script',
      locations: false,
      onComment: (block, _text, start) => {
        comment ??= checkComment(block, source, start);
      },
    });
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const at = (error as SyntaxError & { readonly pos?: unknown }).pos;
    return refusal(typeof at === 'number' ? at : 0, `the bundle does not parse: ${error.message.replace(/ \(\d+:\d+\)$/, '')}`);
  }
  return comment ?? checkProgram(program, source);
}

/** `//` comments only: a block or HTML-like comment is where parsers have disagreed on what is code. */
function checkComment(block: boolean, source: string, start: number): Refusal | undefined {
  if (block) return refusal(start, 'a `/* */` comment is not generated code');
  if (!source.startsWith('//', start)) return refusal(start, `an HTML-like comment \`${source.slice(start, start + 4).replace(/\n.*/s, '')}\` is not generated code`);
  return undefined;
}

/** `var __adec_module = (() => { … })();` and nothing else. */
function checkProgram(program: Program, source: string): Refusal | undefined {
  const [statement, extra] = program.body;
  if (statement === undefined) return refusal(program, `the bundle does not define \`${BUNDLE_GLOBAL_NAME}\``);
  if (extra !== undefined) return notGenerated(extra, `after \`var ${BUNDLE_GLOBAL_NAME} = (() => { … })();\``);
  const shape = `the bundle is \`var ${BUNDLE_GLOBAL_NAME} = (() => { … })();\``;
  if (statement.type !== 'VariableDeclaration' || statement.kind !== 'var' || statement.declarations.length !== 1) return refusal(statement, shape);
  const { id, init } = statement.declarations[0]!;
  if (id.type !== 'Identifier' || id.name !== BUNDLE_GLOBAL_NAME || !isWrittenPlainly(id)) return refusal(id, shape);
  if (init?.type !== 'CallExpression' || init.optional || init.arguments.length !== 0) return refusal(init ?? statement, shape);
  const iife = init.callee;
  if (iife.type !== 'ArrowFunctionExpression' || iife.async || iife.params.length !== 0 || iife.body.type !== 'BlockStatement') return refusal(iife, shape);
  return checkModuleStatements(iife.body.body, iife.body.end - 1, source);
}
