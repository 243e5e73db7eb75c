/**
 * A skill's contract document as `adec skill-contract` prints it for a person: who the skill is,
 * what it receives and may return (each declared field with its type and bounds), the checks its
 * output passes, its time limits and its fallback chain. `--format json` prints the document
 * itself.
 */
import type { SkillContractDocument, Wire } from '@adec/contracts';

export type SkillContract = Wire<typeof SkillContractDocument>;

type Schema = { readonly [keyword: string]: unknown };

export function renderSkillContract(document: SkillContract): string {
  const input = propertiesOf(document.input_schema);
  const context = propertiesOf(input['decision_context']);
  const userState = propertiesOf(input['user_state']);
  const output = propertiesOf(document.output_schema);
  const lines = [
    `skill ${document.skill_id} ${document.skill_version} (${document.skill_type}), contract ${document.sec_version}`,
    ...(document.description === null ? [] : [`  ${document.description}`]),
    '',
    'input (nothing else reaches the skill)',
    `  decision_context: ${fieldNames(input['decision_context'])}`,
    '  action_metadata:',
    ...fieldLines(context['action_metadata']),
    '  user_state.scenario_extensions:',
    ...fieldLines(userState['scenario_extensions']),
    `  skill_config: ${fieldNames(input['skill_config'])}`,
    '',
    'output payload',
    ...fieldLines(output['payload'], '  '),
    `  with metadata: ${fieldNames(output['metadata'])}`,
    '',
    'invariants',
    ...document.universal_checks.invariants.flatMap((invariant) => [`  ${invariant.id} (universal) ${invariant.description}`, `      ${invariant.check}`]),
    ...document.invariants.skill_specific.flatMap((invariant) => [`  ${invariant.id} (skill) ${invariant.description}`, `      ${invariant.check}`]),
    '',
    'prohibitions',
    ...document.universal_checks.prohibitions.flatMap((prohibition) => [`  ${prohibition.id} (universal) ${prohibition.reason}`, `      ${prohibition.pattern}`]),
    ...document.prohibitions.skill_specific.flatMap((prohibition) => [`  ${prohibition.id} (skill) ${prohibition.reason}`, `      ${prohibition.pattern}`]),
    '',
    `time limits: timeout ${document.timeout.default_ms} ms, hard limit ${document.timeout.hard_limit_ms} ms`,
    '',
    'fallback chain',
    ...document.fallback_chain.map((link) => `  tier ${link.tier}: ${link.skill_id === null ? '' : `${link.skill_id} ${link.skill_version ?? ''}`.trimEnd() + ', '}${link.runs_when}`),
    '',
    `templates: ${document.templates.length === 0 ? 'none' : document.templates.join(', ')}`,
    `audit: input, output and output hash recorded, kept ${document.audit.retention_days} days by default; the trace records ${document.audit_fields.length} fields of a run (--format json lists them)`,
  ];
  return `${lines.join('\n')}\n`;
}

function propertiesOf(schema: unknown): Readonly<Record<string, unknown>> {
  const properties = (schema as Schema | undefined)?.['properties'];
  return properties !== null && typeof properties === 'object' ? (properties as Record<string, unknown>) : {};
}

/** The fields of an object schema, the optional ones marked `?`. */
function fieldNames(schema: unknown): string {
  const required = new Set(((schema as Schema | undefined)?.['required'] as string[] | undefined) ?? []);
  return Object.keys(propertiesOf(schema)).map((name) => (required.has(name) ? name : `${name}?`)).join(', ');
}

/** One line per declared field: `name: type (bounds)`, optional ones marked. */
function fieldLines(schema: unknown, indent = '    '): string[] {
  const required = new Set(((schema as Schema | undefined)?.['required'] as string[] | undefined) ?? []);
  const fields = Object.entries(propertiesOf(schema));
  if (fields.length === 0) return [`${indent}(none)`];
  return fields.map(([name, field]) => `${indent}${name}${required.has(name) ? '' : '?'}: ${describeType(field as Schema)}`);
}

/** A JSON Schema of a world type, in the words of the world language. */
function describeType(schema: Schema): string {
  const variants = schema['anyOf'] as Schema[] | undefined;
  if (variants !== undefined) return variants.map(describeType).join(' or ');
  const members = schema['enum'] as unknown[] | undefined;
  if (members !== undefined) return members.map((member) => JSON.stringify(member)).join(' | ');
  if (schema['type'] === 'array') return `list of ${describeType((schema['items'] as Schema | undefined) ?? {})}`;
  if (schema['type'] === 'object') return `{ ${Object.entries(propertiesOf(schema)).map(([name, field]) => `${name}: ${describeType(field as Schema)}`).join(', ')} }`;
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[]).join(' or ') : typeof schema['type'] === 'string' ? schema['type'] : 'any';
  const bounds = [bound(schema, 'minLength', 'maxLength', ' characters'), bound(schema, 'minimum', 'maximum', ''), typeof schema['format'] === 'string' ? schema['format'] : ''].filter((part) => part !== '');
  return bounds.length === 0 ? type : `${type} (${bounds.join(', ')})`;
}

function bound(schema: Schema, low: string, high: string, unit: string): string {
  const [min, max] = [schema[low], schema[high]] as [number | undefined, number | undefined];
  if (min !== undefined && max !== undefined) return `${min}..${max}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return min !== undefined ? `at least ${min}${unit}` : '';
}
