/**
 * The functions of a module's registries, each in the one form the compiler writes at its place
 * (compiler generate/emit-actions.ts, emit-scenarios.ts, emit-skills.ts): an arrow function with
 * the generator's parameter names and an expression body —
 *
 * * `expression`: an expression of expression-grammar.ts (filters, derivations, guardrails,
 *   scores, tie-break keys, invariants, a template's `when`);
 * * `rule`: `(ctx) => condition ? MATCHED : NOT_MATCHED`, or with
 *   `{ matched: true, reason: `…` }` in place of `MATCHED`;
 * * `template`: a template literal (a skill's prompt);
 * * `render`: `({ field: `…`, … })` (a skill template's payload).
 */
import type { Expression, ObjectExpression, Property, SpreadElement } from 'acorn';
import { dataKeyName } from './data-keys.js';
import { checkExpression, checkTemplate, type FunctionScope, type ModuleNames } from './expression-grammar.js';
import { FUNCTION_PARAMETERS } from './generated-parameters.js';
import { isWrittenPlainly } from './member-names.js';
import { notGenerated, refusal, type Refusal } from './refusal.js';

export type FunctionBody = 'expression' | 'rule' | 'template' | 'render';

export interface FunctionForm {
  readonly parameters: readonly string[];
  readonly body: FunctionBody;
  /** The parameters as the body's scope. */
  readonly scope: FunctionScope;
}

/** The shared results a rule function returns (compiler generate/emit-actions.ts). */
export const NOT_MATCHED = 'NOT_MATCHED';
export const MATCHED = 'MATCHED';

export function functionForm(parameters: readonly string[], body: FunctionBody): FunctionForm {
  const values = new Set(parameters.filter((name) => !FUNCTION_PARAMETERS.has(name)));
  const functions = new Set(parameters.filter((name) => FUNCTION_PARAMETERS.has(name)));
  return { parameters, body, scope: { values, functions } };
}

export function checkGeneratedFunction(node: Expression, form: FunctionForm, module: ModuleNames): Refusal | undefined {
  if (node.type !== 'ArrowFunctionExpression') return notGenerated(node, `where generated code has a function of (${form.parameters.join(', ')})`);
  if (node.async || node.generator) return refusal(node, 'an async or generator function is not generated code');
  if (node.body.type === 'BlockStatement') return refusal(node.body, 'a function body in braces is not generated code');
  if (node.params.length !== form.parameters.length) return refusal(node, `a generated function here takes (${form.parameters.join(', ')})`);
  for (let i = 0; i < node.params.length; i++) {
    const param = node.params[i]!;
    if (param.type !== 'Identifier' || param.name !== form.parameters[i] || !isWrittenPlainly(param)) {
      return refusal(param, `a generated function here takes (${form.parameters.join(', ')})`);
    }
  }
  const body = node.body;
  switch (form.body) {
    case 'expression':
      return checkExpression(body, form.scope, module);
    case 'template':
      return checkTemplate(body, form.scope, module);
    case 'rule':
      return checkRuleBody(body, form.scope, module);
    case 'render':
      return checkRenderBody(body, form.scope, module);
  }
}

/** `condition ? MATCHED | { matched: true, reason: `…` } : NOT_MATCHED`. */
function checkRuleBody(body: Expression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (body.type !== 'ConditionalExpression') return notGenerated(body, 'as the body of a rule (`condition ? match : NOT_MATCHED`)');
  if (!isName(body.alternate, NOT_MATCHED)) return refusal(body.alternate, `a rule answers \`${NOT_MATCHED}\` when it does not match`);
  return checkExpression(body.test, scope, module) ?? (isName(body.consequent, MATCHED) ? undefined : checkMatchWithReason(body.consequent, scope, module));
}

function checkMatchWithReason(node: Expression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  const shape = 'a rule matches with `MATCHED` or `{ matched: true, reason: `…` }`';
  if (node.type !== 'ObjectExpression' || node.properties.length !== 2) return refusal(node, shape);
  const [matched, reason] = node.properties;
  if (!isPlainProperty(matched, 'matched') || matched.value.type !== 'Literal' || matched.value.value !== true) return refusal(matched ?? node, shape);
  if (!isPlainProperty(reason, 'reason')) return refusal(reason ?? node, shape);
  return checkTemplate(reason.value, scope, module);
}

/** `({ field: `…`, … })`: each field of the payload rendered from a template. */
function checkRenderBody(body: Expression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  if (body.type !== 'ObjectExpression') return notGenerated(body, 'as the body of a template render (`({ field: `…` })`)');
  return checkRenderedFields(body, scope, module);
}

function checkRenderedFields(body: ObjectExpression, scope: FunctionScope, module: ModuleNames): Refusal | undefined {
  for (const property of body.properties) {
    if (property.type !== 'Property') return notGenerated(property, 'in a rendered payload');
    const key = dataKeyName(property);
    if (typeof key !== 'string') return key;
    const problem = checkTemplate(property.value, scope, module);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function isName(node: Expression, name: string): boolean {
  return node.type === 'Identifier' && node.name === name && isWrittenPlainly(node);
}

function isPlainProperty(property: Property | SpreadElement | undefined, name: string): property is Property {
  return property?.type === 'Property' && dataKeyName(property) === name;
}
