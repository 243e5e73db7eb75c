/**
 * Static check of a generated module (pipeline step 3): no imports, no I/O, no code
 * generation at run time, no clock or randomness, no reflection. It walks the TypeScript AST
 * (text search would be fooled by strings and comments, and miss `globalThis["ev" + "al"]`-
 * style tricks' building blocks). The sandbox removes these globals too; this check makes a
 * generator bug fail the build instead of failing, or worse working, at decision time.
 */
import { ts } from 'ts-morph';

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
  // Parent pointers are tracked by the walk instead of set by the parser (twice as fast to parse).
  return forbiddenConstructsIn(ts.createSourceFile('module.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS));
}

/** The same check over an already parsed module (the build parses it once for both checks). */
export function forbiddenConstructsIn(file: ts.SourceFile): readonly string[] {
  const problems: string[] = [];
  const report = (node: ts.Node, construct: string, reason: string): void => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    problems.push(`${line + 1}:${character + 1} forbidden construct \`${construct}\`: ${reason} (line ${line + 1})`);
  };

  const visit = (node: ts.Node, parent: ts.Node): void => {
    checkNode(node, parent, report);
    ts.forEachChild(node, (child) => visit(child, node));
  };
  ts.forEachChild(file, (child) => visit(child, file));
  return problems;
}

function checkNode(node: ts.Node, parent: ts.Node, report: (node: ts.Node, construct: string, reason: string) => void): void {
  if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) {
    report(node, 'import', 'module loading');
  } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
    report(node, 'export … from', 'module loading');
  } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    report(node, 'import()', 'dynamic module loading');
  } else if (ts.isMetaProperty(node)) {
    report(node, `${ts.tokenToString(node.keywordToken) ?? 'import'}.${node.name.text}`, 'host module metadata');
  } else if (ts.isWithStatement(node)) {
    report(node, 'with', 'dynamic scope');
  } else if (node.kind === ts.SyntaxKind.DebuggerStatement) {
    report(node, 'debugger', 'host debugger');
  } else if (ts.isIdentifier(node)) {
    const reason = FORBIDDEN_GLOBALS.get(node.text);
    if (reason !== undefined && isReference(node, parent)) report(node, node.text, reason);
  } else if (ts.isPropertyAccessExpression(node)) {
    checkProperty(node, node.expression, node.name.text, report);
  } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    checkProperty(node, node.expression, node.argumentExpression.text, report);
  }
}

function checkProperty(
  node: ts.Node,
  object: ts.Expression,
  name: string,
  report: (node: ts.Node, construct: string, reason: string) => void,
): void {
  if (ts.isIdentifier(object) && object.text === 'Math' && name === 'random') {
    report(node, 'Math.random', 'randomness (non-deterministic)');
    return;
  }
  const property = FORBIDDEN_PROPERTIES.get(name);
  const global = FORBIDDEN_GLOBALS.get(name);
  if (property !== undefined) {
    report(node, `.${name}`, property);
  } else if (global !== undefined && ts.isElementAccessExpression(node)) {
    // `x["eval"]`: reaching a forbidden global through some object.
    report(node, `["${name}"]`, global);
  }
}

/**
 * Whether an identifier refers to a binding (as opposed to naming a property or a key): the
 * `process` in `ctx.process` or `{ process: 1 }` is data, the one in `process.env` is not.
 */
function isReference(node: ts.Identifier, parent: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent) ||
      ts.isEnumMember(parent)) &&
    parent.name === node
  ) {
    return false;
  }
  if (ts.isLabeledStatement(parent) && parent.label === node) return false;
  return true;
}
