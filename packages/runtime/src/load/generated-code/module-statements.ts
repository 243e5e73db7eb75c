/**
 * The statements of a bundle's IIFE, in the one order the compiler and esbuild write them
 * (compiler generate/generate-module.ts, bundle/bundle-module.ts):
 *
 * 1. esbuild's prelude, through `var module_exports = {};`: its text exactly (@adec/abi
 *    ESBUILD_PRELUDE);
 * 2. `__export(module_exports, { _NAME: () => _NAME, … })` for the registries;
 * 3. the helpers the module uses, in the library's order, each the library's by hash;
 * 4. `var RE_0 = /…/flags;`, `var RE_1 = …`: regex literals, numbered from 0, flags `i`, `m`, `s`;
 * 5. the registries and the shared rule results, each once, in their order (registry-shapes.ts);
 * 6. `return __toCommonJS(module_exports);`.
 */
import { ESBUILD_PRELUDE } from '@adec/abi';
import type { BlockStatement, Expression, Statement, Super, VariableDeclaration } from 'acorn';
import type { ModuleNames } from './expression-grammar.js';
import { MATCHED, NOT_MATCHED } from './generated-functions.js';
import { checkHelper, libraryHelper } from './helper-library-check.js';
import { checkRegistryLiteral } from './data-literal.js';
import { isWrittenPlainly } from './member-names.js';
import { notGenerated, refusal, type Refusal } from './refusal.js';
import { REGISTRY_SHAPES } from './registry-shapes.js';

const RETURN = 'return __toCommonJS(module_exports);';

/** The shared results, exactly as emitted (compiler generate/emit-actions.ts SHARED_RULE_RESULTS). */
const SHARED_RESULTS: ReadonlyMap<string, string> = new Map([
  [NOT_MATCHED, `var ${NOT_MATCHED} = Object.freeze({ matched: false });`],
  [MATCHED, `var ${MATCHED} = Object.freeze({ matched: true });`],
]);

/** Declarations after the regex constants, in order: the ABI's registries with the shared results before the rule functions. */
const DECLARATIONS: readonly string[] = [...REGISTRY_SHAPES.keys()].flatMap((name) => (name === '_RULE_FUNCTIONS' ? [...SHARED_RESULTS.keys(), name] : [name]));

/** The exports: every registry (the shared results are the module's own). */
const EXPORTED: ReadonlySet<string> = new Set(REGISTRY_SHAPES.keys());

const REGEX_FLAGS = /^i?m?s?$/;

/** The IIFE's body, statement by statement; `end` is where the IIFE's body closes (for a refusal of what is missing). */
export function checkModuleStatements(statements: readonly Statement[], end: number, source: string): Refusal | undefined {
  const prelude = checkPrelude(statements, end, source);
  if (typeof prelude !== 'number') return prelude;
  const exports = statements[prelude];
  const exportProblem = exports === undefined ? refusal(end, 'the module does not export its registries') : checkExportCall(exports);
  if (exportProblem !== undefined) return exportProblem;
  const helpers = checkHelpers(statements, prelude + 1, source);
  if ('problem' in helpers) return helpers;
  const regexes = checkRegexConstants(statements, helpers.next);
  if ('problem' in regexes) return regexes;
  const module: ModuleNames = { helpers: helpers.names, regexes: regexes.names };
  let index = regexes.next;
  for (const name of DECLARATIONS) {
    const statement = statements[index++];
    const problem = statement === undefined ? refusal(end, `the module does not declare \`${name}\``) : checkDeclaration(statement, name, module, source);
    if (problem !== undefined) return problem;
  }
  return checkReturn(statements, index, end, source);
}

/** esbuild's prelude, through `var module_exports = {};`, as text; the index after it. */
function checkPrelude(statements: readonly Statement[], end: number, source: string): number | Refusal {
  const last = statements.findIndex((statement) => statement.type === 'VariableDeclaration' && declaredName(statement) === 'module_exports');
  const first = statements[0];
  if (first === undefined) return refusal(end, 'the module is empty');
  if (last < 0 || source.slice(first.start, statements[last]!.end) !== ESBUILD_PRELUDE) {
    return refusal(first.start + firstDifference(source, first.start, ESBUILD_PRELUDE), "the module does not start with esbuild's prelude as every bundle has it");
  }
  return last + 1;
}

/** The helpers from `from` on: the library's, in its order, each by hash; with their number of parameters. */
function checkHelpers(statements: readonly Statement[], from: number, source: string): { readonly next: number; readonly names: ReadonlyMap<string, number> } | Refusal {
  const names = new Map<string, number>();
  let lastOrder = -1;
  let index = from;
  for (let statement = statements[index]; statement?.type === 'FunctionDeclaration'; statement = statements[++index]) {
    const name = statement.id.name;
    const helper = libraryHelper(name);
    if (helper === undefined) return refusal(statement.id, `\`${name}\` is not a function of the helper library`);
    if (helper.order <= lastOrder) return refusal(statement, `the helper \`${name}\` is out of the library's order or declared twice`);
    const problem = checkHelper(statement, helper, source);
    if (problem !== undefined) return problem;
    lastOrder = helper.order;
    names.set(name, statement.params.length);
  }
  return { next: index, names };
}

/** `var RE_0 = /…/flags;`, `var RE_1 = …` from `from` on. */
function checkRegexConstants(statements: readonly Statement[], from: number): { readonly next: number; readonly names: ReadonlySet<string> } | Refusal {
  const names = new Set<string>();
  let index = from;
  for (let statement = statements[index]; statement !== undefined && isRegexDeclaration(statement, names.size); statement = statements[++index]) {
    const literal = declaredValue(statement);
    if (literal.type !== 'Literal' || literal.regex === undefined) return refusal(literal, 'a regex constant holds a regex literal');
    if (!REGEX_FLAGS.test(literal.regex.flags)) return refusal(literal, `the regex flags \`${literal.regex.flags}\` are not generated (only \`i\`, \`m\`, \`s\`, in that order)`);
    names.add(`RE_${names.size}`);
  }
  return { next: index, names };
}

/** `return __toCommonJS(module_exports);` at `index`, and nothing after it. */
function checkReturn(statements: readonly Statement[], index: number, end: number, source: string): Refusal | undefined {
  const last = statements[index];
  if (last === undefined) return refusal(end, `the module does not end with \`${RETURN}\``);
  if (source.slice(last.start, last.end) !== RETURN) return last.type === 'ReturnStatement' ? refusal(last, `the module ends with \`${RETURN}\``) : notGenerated(last, 'in the module');
  const extra = statements[index + 1];
  return extra === undefined ? undefined : notGenerated(extra, `after \`${RETURN}\``);
}

/** How far `source` from `start` reads as `expected`. */
function firstDifference(source: string, start: number, expected: string): number {
  let length = 0;
  while (length < expected.length && source.charCodeAt(start + length) === expected.charCodeAt(length)) length++;
  return length;
}

/** `var NAME = value;`: one plain declarator with a value. */
function declaredName(statement: VariableDeclaration): string | undefined {
  if (statement.kind !== 'var' || statement.declarations.length !== 1) return undefined;
  const declarator = statement.declarations[0]!;
  if (declarator.id.type !== 'Identifier' || declarator.init === null || declarator.init === undefined || !isWrittenPlainly(declarator.id)) return undefined;
  return declarator.id.name;
}

function declaredValue(statement: VariableDeclaration): Expression {
  return statement.declarations[0]!.init!;
}

function isRegexDeclaration(statement: Statement, number: number): statement is VariableDeclaration {
  return statement.type === 'VariableDeclaration' && declaredName(statement) === `RE_${number}`;
}

function checkDeclaration(statement: Statement, name: string, module: ModuleNames, source: string): Refusal | undefined {
  const expected = `\`var ${name} = …;\``;
  if (statement.type !== 'VariableDeclaration') return notGenerated(statement, `where the module declares ${expected}`);
  const declared = declaredName(statement);
  if (declared !== name) return refusal(statement, `the module declares ${expected} here, not ${declared === undefined ? 'this' : `\`${declared}\``}`);
  const shared = SHARED_RESULTS.get(name);
  if (shared !== undefined) return source.slice(statement.start, statement.end) === shared ? undefined : refusal(statement, `\`${name}\` is declared as \`${shared}\``);
  const shape = REGISTRY_SHAPES.get(name);
  if (shape === undefined) return refusal(statement, `\`${name}\` is not a registry`);
  return checkRegistryLiteral(declaredValue(statement), shape, name, module);
}

/** `__export(module_exports, { _NAME: () => _NAME, … });` naming registries only, each once. */
function checkExportCall(statement: Statement): Refusal | undefined {
  const shape = 'the module exports its registries with `__export(module_exports, { _NAME: () => _NAME, … })`';
  if (statement.type !== 'ExpressionStatement') return refusal(statement, shape);
  const call = statement.expression;
  if (call.type !== 'CallExpression' || call.optional || !isName(call.callee, '__export') || call.arguments.length !== 2) return refusal(statement, shape);
  const [target, table] = call.arguments;
  if (target === undefined || target.type === 'SpreadElement' || !isName(target, 'module_exports')) return refusal(statement, shape);
  if (table === undefined || table.type !== 'ObjectExpression') return refusal(statement, shape);
  const seen = new Set<string>();
  for (const property of table.properties) {
    if (property.type !== 'Property' || property.kind !== 'init' || property.computed || property.method || property.shorthand || property.key.type !== 'Identifier') return refusal(property, shape);
    const name = property.key.name;
    const getter = property.value;
    const exportsItself = getter.type === 'ArrowFunctionExpression' && getter.params.length === 0 && !getter.async && isName(getter.body, name);
    if (!EXPORTED.has(name) || seen.has(name) || !exportsItself || !isWrittenPlainly(property.key)) return refusal(property, `\`${name}\` is not exported as a registry (\`${name}: () => ${name}\`)`);
    seen.add(name);
  }
  return undefined;
}

function isName(node: Expression | Super | BlockStatement, name: string): boolean {
  return node.type === 'Identifier' && node.name === name && isWrittenPlainly(node);
}
