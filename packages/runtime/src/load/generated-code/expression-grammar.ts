/**
 * The expressions of generated functions: what the compiler's expression emitter
 * (compiler generate/emit-expr.ts) writes, after esbuild has stripped the types, and nothing
 * else. Literals, the function's parameters, `!`/`-`, arithmetic, comparison (`==`/`!=` only
 * against `null`), `&&`/`||`/`??`, `? :`, list literals, member reads (optionally chained, by a
 * name or a string literal, never a name of member-names.ts), and these calls only:
 *
 * * a helper of the bundle with its number of arguments (helper-library-check.ts);
 * * `Math.<f>(…)` for the functions the built-ins lower to (compiler model/builtins.ts);
 * * `RE_n.test(x)` on a regex constant of the bundle, `x.includes(y)`, `x.toLowerCase()`,
 *   `x.toUpperCase()`; `fold(x)` and `list.map(fold)` where `fold` is a parameter;
 * * a block of a long chain, `((ctx, left) => left || …)(ctx, value)`: its parameters are the
 *   enclosing function's, passed through, and `left`, the value so far.
 *
 * Template literals (a reason, a prompt, a rendered field) interpolate an expression or
 * `String(expression)`. No assignment, update, `new`, `delete`, `typeof`, `in`, sequence,
 * spread, `this`, function other than a chain block, or any other global.
 */
import type { ArrowFunctionExpression, CallExpression, Expression, Identifier, Literal, MemberExpression, SpreadElement, Super, TemplateLiteral } from 'acorn';
import { CHAIN_VALUE, VALUE_PARAMETERS } from './generated-parameters.js';
import { isRefusedMemberName, isWrittenPlainly } from './member-names.js';
import { notGenerated, refusal, type Refusal } from './refusal.js';

/** The names a generated function's parameters bind. */
export interface FunctionScope {
  /** Parameters read as values: `ctx`, `env`, `action`, `input`, `signals`, `state`, `left`. */
  readonly values: ReadonlySet<string>;
  /** Parameters that are functions, only ever called or passed to `map`: `fold`. */
  readonly functions: ReadonlySet<string>;
}

/** What the bundle declares for its functions to call. */
export interface ModuleNames {
  /** Each helper the bundle declares, with its number of parameters. */
  readonly helpers: ReadonlyMap<string, number>;
  /** The regex constants the bundle declares (`RE_0`, …). */
  readonly regexes: ReadonlySet<string>;
}

/** `Math.<f>` as the built-ins lower to it, with its number of arguments (compiler model/builtins.ts). */
export const MATH_FUNCTIONS: ReadonlyMap<string, number> = new Map([
  ['min', 2],
  ['max', 2],
  ['abs', 1],
  ['round', 1],
  ['floor', 1],
  ['ceil', 1],
]);

/** The string methods the built-ins lower to (`lower`, `upper`), called without arguments. */
export const TEXT_METHODS: ReadonlySet<string> = new Set(['toLowerCase', 'toUpperCase']);

const ARITHMETIC_AND_COMPARISON: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '===', '!==', '<', '<=', '>', '>=']);
const LOGICAL: ReadonlySet<string> = new Set(['&&', '||', '??']);

export function checkExpression(node: Expression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  switch (node.type) {
    case 'Literal':
      return checkValueLiteral(node);
    case 'Identifier':
      if (scope.values.has(node.name) && isWrittenPlainly(node)) return undefined;
      return refusal(node, `\`${node.name}\` is not a name generated code reads`);
    case 'UnaryExpression':
      if (node.operator !== '!' && node.operator !== '-') return refusal(node, `the operator \`${node.operator}\` is not generated code`);
      return checkExpression(node.argument, scope, module);
    case 'BinaryExpression':
      if (node.left.type === 'PrivateIdentifier') return notGenerated(node.left);
      if (node.operator === '==' || node.operator === '!=') {
        // `x == null`: generated code compares loosely only with null (absent).
        if (!isNullLiteral(node.right)) return refusal(node, `\`${node.operator}\` is generated only against \`null\``);
        return checkExpression(node.left, scope, module);
      }
      if (!ARITHMETIC_AND_COMPARISON.has(node.operator)) return refusal(node, `the operator \`${node.operator}\` is not generated code`);
      return checkExpression(node.left, scope, module) ?? checkExpression(node.right, scope, module);
    case 'LogicalExpression':
      if (!LOGICAL.has(node.operator)) return refusal(node, `the operator \`${node.operator}\` is not generated code`);
      return checkExpression(node.left, scope, module) ?? checkExpression(node.right, scope, module);
    case 'ConditionalExpression':
      return checkExpression(node.test, scope, module) ?? checkExpression(node.consequent, scope, module) ?? checkExpression(node.alternate, scope, module);
    case 'ArrayExpression':
      for (const element of node.elements) {
        if (element === null) return refusal(node, 'a list with a hole is not generated code');
        const problem = element.type === 'SpreadElement' ? notGenerated(element) : checkExpression(element, scope, module);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'MemberExpression':
      return checkMemberRead(node, scope, module);
    case 'ChainExpression':
      return node.expression.type === 'CallExpression' ? checkCall(node.expression, scope, module) : checkMemberRead(node.expression, scope, module);
    case 'CallExpression':
      return checkCall(node, scope, module);
    default:
      return notGenerated(node, 'in a generated function');
  }
}

/** A template literal: text, and interpolated expressions, each bare or as `String(expression)`. */
export function checkTemplate(node: Expression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (node.type !== 'TemplateLiteral') return notGenerated(node, 'where generated code renders text');
  return checkInterpolations(node, scope, module);
}

function checkInterpolations(node: TemplateLiteral, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  for (const part of node.expressions) {
    const problem = isStringCall(part) ? checkArguments(part, 1, scope, module) : checkExpression(part, scope, module);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function isStringCall(node: Expression): node is CallExpression {
  return node.type === 'CallExpression' && !node.optional && node.callee.type === 'Identifier' && node.callee.name === 'String' && isWrittenPlainly(node.callee);
}

/** Scalars only: a regex literal is a constant of the module (`RE_n`), and BigInt is not a value generated code has. */
export function checkValueLiteral(node: Literal): Refusal | undefined {
  if (node.regex !== undefined) return refusal(node, 'a regex literal is generated only as a module constant `RE_n`');
  if (node.bigint !== undefined) return refusal(node, 'a BigInt literal is not generated code');
  return undefined;
}

function isNullLiteral(node: Expression): boolean {
  return node.type === 'Literal' && node.value === null && node.regex === undefined;
}

function checkMemberRead(node: MemberExpression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  return checkMemberName(node) ?? checkObject(node.object, scope, module);
}

/** `.name` or `["name"]`, never a computed key and never a name of member-names.ts. */
function checkMemberName(node: MemberExpression): Refusal | undefined {
  const property = node.property;
  let name: string;
  if (!node.computed && property.type === 'Identifier' && isWrittenPlainly(property)) {
    name = property.name;
  } else if (node.computed && property.type === 'Literal' && typeof property.value === 'string') {
    name = property.value;
  } else {
    return refusal(property, node.computed ? 'a computed member other than a string literal is not generated code' : 'a member name written with escapes is not generated code');
  }
  return isRefusedMemberName(name) ? refusal(property, `the member \`${name}\` is not a name generated code reads`) : undefined;
}

function checkObject(object: Expression | Super, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  return object.type === 'Super' ? notGenerated(object) : checkExpression(object, scope, module);
}

function checkCall(node: CallExpression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (node.optional) return refusal(node, 'an optional call `?.()` is not generated code');
  const callee = node.callee;
  if (callee.type === 'Identifier' && isWrittenPlainly(callee)) {
    const arity = module.helpers.get(callee.name);
    if (arity !== undefined) return checkArguments(node, arity, scope, module);
    if (scope.functions.has(callee.name)) return checkArguments(node, 1, scope, module);
    return refusal(callee, `\`${callee.name}\` is not a function generated code calls`);
  }
  if (callee.type === 'MemberExpression') return checkMethodCall(node, callee, scope, module);
  if (callee.type === 'ArrowFunctionExpression') return checkChainBlock(node, callee, scope, module);
  return notGenerated(callee, 'as the function of a call');
}

/** `Math.f(…)`, `RE_n.test(x)`, `x.includes(y)`, `x.toLowerCase()`, `list.map(fold)`. */
function checkMethodCall(node: CallExpression, callee: MemberExpression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  const method = callee.property;
  if (callee.computed || callee.optional || method.type !== 'Identifier' || !isWrittenPlainly(method)) return refusal(callee, 'a method is called only by its plain name in generated code');
  const object = callee.object;
  const objectName = object.type === 'Identifier' && isWrittenPlainly(object) ? object.name : undefined;
  if (objectName === 'Math') {
    const arity = MATH_FUNCTIONS.get(method.name);
    return arity === undefined ? refusal(method, `\`Math.${method.name}\` is not a function generated code calls`) : checkArguments(node, arity, scope, module);
  }
  switch (method.name) {
    case 'test':
      if (objectName === undefined || !module.regexes.has(objectName)) return refusal(object, '`test` is called only on a regex constant `RE_n` of the bundle');
      return checkArguments(node, 1, scope, module);
    case 'includes':
      return checkObject(object, scope, module) ?? checkArguments(node, 1, scope, module);
    case 'map': {
      const [mapper] = node.arguments;
      if (node.arguments.length !== 1 || mapper?.type !== 'Identifier' || !scope.functions.has(mapper.name) || !isWrittenPlainly(mapper)) {
        return refusal(node, '`map` is called only with a function parameter (`fold`)');
      }
      return checkObject(object, scope, module);
    }
    default:
      if (TEXT_METHODS.has(method.name)) return checkObject(object, scope, module) ?? checkArguments(node, 0, scope, module);
      return refusal(method, `\`.${method.name}(…)\` is not a method generated code calls`);
  }
}

function checkArguments(node: CallExpression, count: number, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (node.arguments.length !== count) return refusal(node, `a call with ${node.arguments.length} argument(s) where generated code passes ${count}`);
  for (const argument of node.arguments) {
    const problem = isSpread(argument) ? notGenerated(argument) : checkExpression(argument, scope, module);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function isSpread(node: Expression | SpreadElement): node is SpreadElement {
  return node.type === 'SpreadElement';
}

/**
 * `((p…, left) => body)(p…, value)`: a block of a long chain. Its parameters are the enclosing
 * parameters handed through, then `left`, the value so far. esbuild renames a parameter that
 * would shadow one of an enclosing function (`ctx` becomes `ctx2`, `left` `left2`), so a
 * parameter is the generator's name with a number or none, never a name already in scope, and
 * each one before `left` passes the enclosing name it renames. The body reads the block's
 * parameters and what the enclosing scope reads, and `left` exactly once: the generator applies
 * the chain's links to the value so far, so no block can double a value (`left + left`, nested,
 * would make a string of 2^depth times the input).
 */
function checkChainBlock(node: CallExpression, block: ArrowFunctionExpression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (block.async || block.generator || block.body.type === 'BlockStatement') return notGenerated(block, 'as a block of a long chain');
  const params = block.params;
  const last = params.length - 1;
  if (last < 0 || node.arguments.length !== params.length) return refusal(block, 'a block of a long chain takes the enclosing parameters and `left`');
  const values = new Set(scope.values);
  for (let i = 0; i <= last; i++) {
    const param = params[i]!;
    const argument = node.arguments[i]!;
    if (param.type !== 'Identifier' || !isWrittenPlainly(param)) return notGenerated(param, 'as a parameter of a chain block');
    const base = generatedParameterName(param.name);
    if (values.has(param.name) || scope.functions.has(param.name)) return refusal(param, `a chain block's parameter \`${param.name}\` shadows a name in scope`);
    if (i === last) {
      if (base !== CHAIN_VALUE) return refusal(param, `the last parameter of a chain block is \`${CHAIN_VALUE}\`, not \`${param.name}\``);
      const problem = isSpread(argument) ? notGenerated(argument) : checkExpression(argument, scope, module);
      if (problem !== undefined) return problem;
    } else {
      const passed = argument.type === 'Identifier' && isWrittenPlainly(argument) && scope.values.has(argument.name) ? argument.name : undefined;
      if (base === undefined || base === CHAIN_VALUE || passed === undefined || generatedParameterName(passed) !== base) {
        return refusal(param, `a chain block's parameter \`${param.name}\` is an enclosing parameter passed as itself`);
      }
    }
    values.add(param.name);
  }
  const value = (params[last] as Identifier).name;
  const problem = checkExpression(block.body, { values, functions: scope.functions }, module);
  if (problem !== undefined) return problem;
  const reads = readsOf(block.body, value);
  return reads === 1 ? undefined : refusal(block.body, `a chain block reads its value \`${value}\` once, not ${reads} times`);
}

/** How many times `name` is read in `node`, an expression the grammar accepted (names in scope are never shadowed). */
function readsOf(node: Expression, name: string): number {
  switch (node.type) {
    case 'Identifier':
      return node.name === name ? 1 : 0;
    case 'UnaryExpression':
      return readsOf(node.argument, name);
    case 'BinaryExpression':
      return (node.left.type === 'PrivateIdentifier' ? 0 : readsOf(node.left, name)) + readsOf(node.right, name);
    case 'LogicalExpression':
      return readsOf(node.left, name) + readsOf(node.right, name);
    case 'ConditionalExpression':
      return readsOf(node.test, name) + readsOf(node.consequent, name) + readsOf(node.alternate, name);
    case 'ArrayExpression':
    case 'CallExpression':
    case 'TemplateLiteral': {
      const parts = node.type === 'ArrayExpression' ? node.elements : node.type === 'CallExpression' ? [node.callee, ...node.arguments] : node.expressions;
      let reads = 0;
      for (const part of parts) if (part !== null && part.type !== 'SpreadElement' && part.type !== 'Super') reads += readsOf(part, name);
      return reads;
    }
    case 'ArrowFunctionExpression':
      return node.body.type === 'BlockStatement' ? 0 : readsOf(node.body, name);
    case 'MemberExpression':
      return node.object.type === 'Super' ? 0 : readsOf(node.object, name);
    case 'ChainExpression':
      return readsOf(node.expression, name);
    default:
      return 0;
  }
}

/** `ctx` for `ctx` or esbuild's `ctx2`; undefined for a name no generated parameter has. */
function generatedParameterName(name: string): string | undefined {
  const base = name.replace(/[1-9][0-9]*$/, '');
  return VALUE_PARAMETERS.has(base) ? base : undefined;
}
