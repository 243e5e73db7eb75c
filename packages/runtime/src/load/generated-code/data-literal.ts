/**
 * The registries' literals: data (objects with plain keys, lists, strings, numbers, booleans,
 * null and negated numbers) in which functions appear only where registry-shapes.ts puts them.
 * Anything else in a literal (a call, a reference, a template, a spread, an accessor) is
 * refused with its node.
 */
import type { Expression, ObjectExpression, Property } from 'acorn';
import { dataKeyName } from './data-keys.js';
import { checkValueLiteral, type ModuleNames } from './expression-grammar.js';
import { checkGeneratedFunction } from './generated-functions.js';
import { notGenerated, refusal, type Refusal } from './refusal.js';
import { DATA, type RegistryShape } from './registry-shapes.js';

/** `node` as a registry literal of `shape`; `registry` names it in a refusal. */
export function checkRegistryLiteral(node: Expression, shape: RegistryShape, registry: string, module: ModuleNames): Refusal | undefined {
  switch (shape.kind) {
    case 'data':
      return checkData(node, registry);
    case 'function':
      if (shape.nullable && node.type === 'Literal' && node.value === null && node.regex === undefined) return undefined;
      return checkGeneratedFunction(node, shape.form, module);
    case 'list':
      if (node.type !== 'ArrayExpression') return notGenerated(node, `where ${registry} has a list`);
      for (const element of node.elements) {
        if (element === null) return refusal(node, 'a list with a hole is not generated code');
        const problem = element.type === 'SpreadElement' ? notGenerated(element) : checkRegistryLiteral(element, shape.of, registry, module);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'entries':
    case 'fields':
      if (node.type !== 'ObjectExpression') return notGenerated(node, `where ${registry} has an object`);
      return checkObjectEntries(node, shape, registry, module);
  }
}

function checkObjectEntries(node: ObjectExpression, shape: Extract<RegistryShape, { kind: 'entries' | 'fields' }>, registry: string, module: ModuleNames): Refusal | undefined {
  for (const property of node.properties) {
    if (property.type !== 'Property') return notGenerated(property, `in ${registry}`);
    const key = dataKeyName(property);
    if (typeof key !== 'string') return key;
    const valueShape = shape.kind === 'entries' ? shape.of : (shape.fields.get(key) ?? DATA);
    const problem = checkRegistryLiteral(property.value, valueShape, registry, module);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Plain data, as the compiler's `jsonCode` and the registries' scalars write it. */
function checkData(node: Expression, registry: string): Refusal | undefined {
  switch (node.type) {
    case 'Literal':
      return checkValueLiteral(node);
    case 'UnaryExpression':
      if (node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') return undefined;
      return notGenerated(node, `in ${registry}'s data`);
    case 'ArrayExpression':
      for (const element of node.elements) {
        if (element === null) return refusal(node, 'a list with a hole is not generated code');
        const problem = element.type === 'SpreadElement' ? notGenerated(element, `in ${registry}'s data`) : checkData(element, registry);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'ObjectExpression':
      for (const property of node.properties) {
        const problem = property.type === 'Property' ? checkDataProperty(property, registry) : notGenerated(property, `in ${registry}'s data`);
        if (problem !== undefined) return problem;
      }
      return undefined;
    default:
      return notGenerated(node, `in ${registry}'s data`);
  }
}

function checkDataProperty(property: Property, registry: string): Refusal | undefined {
  const key = dataKeyName(property);
  return typeof key === 'string' ? checkData(property.value, registry) : key;
}
