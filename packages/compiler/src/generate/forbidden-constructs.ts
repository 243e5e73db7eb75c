/**
 * Static check of a generated module (pipeline step 3): no imports, no I/O, no code
 * generation at run time, no clock or randomness, no reflection. It walks the TypeScript AST
 * (text search would be fooled by strings and comments, and miss `globalThis["ev" + "al"]`-
 * style tricks' building blocks). The sandbox removes these globals too; this check makes a
 * generator bug fail the build instead of failing, or worse working, at decision time.
 */
import {
  SyntaxKind,
  isCallExpression,
  isElementAccessExpression,
  isEnumMember,
  isExportDeclaration,
  isGetAccessorDeclaration,
  isIdentifier,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isLabeledStatement,
  isMetaProperty,
  isMethodDeclaration,
  isMethodSignatureDeclaration,
  isPropertyAccessExpression,
  isPropertyAssignment,
  isPropertyDeclaration,
  isPropertySignatureDeclaration,
  isQualifiedName,
  isSetAccessorDeclaration,
  isWithStatement,
  tokenToString,
  type Expression,
  type Identifier,
  type Node,
  type SourceFile,
} from 'typescript-native/unstable/ast';
import { moduleProgram } from './module-program.js';

/** Globals a decision module must never reference, with the reason shown to the reader. */
const FORBIDDEN_GLOBALS: ReadonlyMap<string, string> = new Map(Object.entries({
  require: 'module loading',
  module: 'module loading',
  exports: 'module loading',
  eval: 'run-time code generation',
  Function: 'run-time code generation',
  Date: 'reads the clock (non-deterministic)',
  performance: 'reads the clock (non-deterministic)',
  Intl: 'locale-dependent (non-deterministic)',
  crypto: 'randomness (non-deterministic)',
  globalThis: 'reaches host globals',
  global: 'reaches host globals',
  window: 'reaches host globals',
  self: 'reaches host globals',
  process: 'host process access',
  Buffer: 'host API',
  console: 'I/O',
  setTimeout: 'timers',
  setInterval: 'timers',
  setImmediate: 'timers',
  clearTimeout: 'timers',
  clearInterval: 'timers',
  queueMicrotask: 'timers',
  Promise: 'asynchronous execution',
  fetch: 'network I/O',
  XMLHttpRequest: 'network I/O',
  WebSocket: 'network I/O',
  WebAssembly: 'run-time code generation',
  Proxy: 'reflection',
  Reflect: 'reflection',
  SharedArrayBuffer: 'shared memory',
  Atomics: 'shared memory',
  WeakRef: 'garbage-collector dependent (non-deterministic)',
  FinalizationRegistry: 'garbage-collector dependent (non-deterministic)',
  __dirname: 'host file system',
  __filename: 'host file system',
}));

/**
 * Properties that lead from any value to the Function constructor or the prototype chain.
 * (A Map built from pairs: in an object literal, a `__proto__` key would set the prototype.)
 */
const FORBIDDEN_PROPERTIES: ReadonlyMap<string, string> = new Map([
  ['constructor', 'reaches the Function constructor'],
  ['__proto__', 'prototype mutation'],
  ['__defineGetter__', 'prototype mutation'],
  ['__defineSetter__', 'prototype mutation'],
  ['__lookupGetter__', 'reflection'],
  ['__lookupSetter__', 'reflection'],
]);

/** One message per forbidden construct: `line:col forbidden construct `X`: reason`. */
export function findForbiddenConstructs(source: string): readonly string[] {
  return forbiddenConstructsIn(moduleProgram(source).sourceFile);
}

/** The same check over an already parsed module (the build parses it once for both checks). */
export function forbiddenConstructsIn(file: SourceFile): readonly string[] {
  const problems: string[] = [];
  const report = (node: Node, construct: string, reason: string): void => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    problems.push(`${line + 1}:${character + 1} forbidden construct \`${construct}\`: ${reason} (line ${line + 1})`);
  };

  const words = triggerWordOffsets(file.text);
  // Depth first, in source order, with a stack: a chain `a || b || …` from a world is a
  // binary expression nested thousands deep.
  const pending: (readonly [Node, Node])[] = [];
  const pushChildren = (parent: Node): void => {
    const children: Node[] = [];
    parent.forEachChild((child) => void children.push(child));
    for (let i = children.length - 1; i >= 0; i--) pending.push([children[i]!, parent]);
  };
  pushChildren(file);
  while (pending.length > 0) {
    const [node, parent] = pending.pop()!;
    if (words !== undefined && !containsOffset(words, node.pos, node.end)) continue;
    checkNode(node, parent, report);
    pushChildren(node);
  }
  return problems;
}

/**
 * Every forbidden construct is written with one of these words: its global's name, its
 * property's name (`random` for `Math.random`), or its keyword (`from` in `export … from`,
 * `target` in `new.target`).
 */
const TRIGGER_WORDS: readonly string[] = [
  ...FORBIDDEN_GLOBALS.keys(),
  ...FORBIDDEN_PROPERTIES.keys(),
  'random',
  'import',
  'from',
  'target',
  'with',
  'debugger',
];
const TRIGGER_WORD = new RegExp(`(?<![\\w$])(?:${TRIGGER_WORDS.join('|')})(?![\\w$])`, 'g');

/**
 * An escape that can spell a letter without writing it (`D\u0061te`, `x["\x65val"]`), or a
 * line continuation that can split a word inside a string.
 */
const WORD_HIDING_ESCAPE = /\\(?:[ux1-9]|\r|\n|\u2028|\u2029)/;

/**
 * Where the trigger words occur, ascending; undefined when an escape could hide one. The walk
 * only enters nodes whose text holds an occurrence: a forbidden construct's own word lies
 * inside it and inside every node around it, so the walk still reaches each one, while a
 * module's thousands of rule predicates that mention none are skipped (at 10,000 rules a
 * full walk took 0.9 s, bench/RESULTS.md).
 */
function triggerWordOffsets(text: string): readonly number[] | undefined {
  if (WORD_HIDING_ESCAPE.test(text)) return undefined;
  return Array.from(text.matchAll(TRIGGER_WORD), (match) => match.index);
}

/** Whether some offset lies in [start, end); `offsets` ascending. */
function containsOffset(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (offsets[middle]! < start) low = middle + 1;
    else high = middle;
  }
  return low < offsets.length && offsets[low]! < end;
}

/** The checks. A new one must be written with a word in TRIGGER_WORDS, or the walk never reaches it. */
function checkNode(node: Node, parent: Node, report: (node: Node, construct: string, reason: string) => void): void {
  if (isImportDeclaration(node) || isImportEqualsDeclaration(node)) {
    report(node, 'import', 'module loading');
  } else if (isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
    report(node, 'export … from', 'module loading');
  } else if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) {
    report(node, 'import()', 'dynamic module loading');
  } else if (isMetaProperty(node)) {
    report(node, `${tokenToString(node.keywordToken) ?? 'import'}.${node.name.text}`, 'host module metadata');
  } else if (isWithStatement(node)) {
    report(node, 'with', 'dynamic scope');
  } else if (node.kind === SyntaxKind.DebuggerStatement) {
    report(node, 'debugger', 'host debugger');
  } else if (isIdentifier(node)) {
    const reason = FORBIDDEN_GLOBALS.get(node.text);
    if (reason !== undefined && isReference(node, parent)) report(node, node.text, reason);
  } else if (isPropertyAccessExpression(node)) {
    checkProperty(node, node.expression, node.name.text, report);
  } else if (isElementAccessExpression(node) && isStringLiteralLike(node.argumentExpression)) {
    checkProperty(node, node.expression, node.argumentExpression.text, report);
  }
}

function checkProperty(
  node: Node,
  object: Expression,
  name: string,
  report: (node: Node, construct: string, reason: string) => void,
): void {
  if (isIdentifier(object) && object.text === 'Math' && name === 'random') {
    report(node, 'Math.random', 'randomness (non-deterministic)');
    return;
  }
  const property = FORBIDDEN_PROPERTIES.get(name);
  const global = FORBIDDEN_GLOBALS.get(name);
  if (property !== undefined) {
    report(node, `.${name}`, property);
  } else if (global !== undefined && isElementAccessExpression(node)) {
    // `x["eval"]`: reaching a forbidden global through some object.
    report(node, `["${name}"]`, global);
  }
}

/**
 * Whether an identifier refers to a binding (as opposed to naming a property or a key): the
 * `process` in `ctx.process` or `{ process: 1 }` is data, the one in `process.env` is not.
 */
function isReference(node: Identifier, parent: Node): boolean {
  if (isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (isQualifiedName(parent) && parent.right === node) return false;
  if (
    (isPropertyAssignment(parent) ||
      isPropertySignatureDeclaration(parent) ||
      isPropertyDeclaration(parent) ||
      isMethodDeclaration(parent) ||
      isMethodSignatureDeclaration(parent) ||
      isGetAccessorDeclaration(parent) ||
      isSetAccessorDeclaration(parent) ||
      isEnumMember(parent)) &&
    parent.name === node
  ) {
    return false;
  }
  if (isLabeledStatement(parent) && parent.label === node) return false;
  return true;
}

function isStringLiteralLike(node: Node): node is Node & { readonly text: string } {
  return node.kind === SyntaxKind.StringLiteral || node.kind === SyntaxKind.NoSubstitutionTemplateLiteral;
}
