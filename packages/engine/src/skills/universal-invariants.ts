/**
 * docs/spec/skill-contract.md §3's universal invariants INV-001..006, which hold for every skill's payload whatever
 * its contract says. INV-001..003 guard the authority boundary by field name (at any depth of
 * the payload); INV-004 and INV-005 by content; INV-006 by the declared length limits, which
 * every string of the payload must have and respect. Content is read as written and as a reader
 * sees it (text/text-forms.ts), so a disguised "ignore the guardrails" is found. The field names
 * and patterns are @adec/abi's, which each skill's contract document states.
 */
import { ACTION_SELECTION_FIELDS, EXTERNAL_REFERENCE, GUARDRAIL_BYPASS, SCORING_FIELDS, STATE_CHANGE_FIELDS, STATE_CHANGE_PREFIX, type ValueSchema } from '@adec/abi';
import { findPattern, textForms, type TextForms, type TextMatch } from './text/text-forms.js';

export interface InvariantFailure {
  readonly id: string;
  /** JSON path in the payload, e.g. `payload.display_parameters.score`. */
  readonly path: string;
  readonly message: string;
  readonly match?: TextMatch;
}

const ACTION_FIELDS = new Set(ACTION_SELECTION_FIELDS);
const SCORING = new Set(SCORING_FIELDS);
const STATE_FIELDS = new Set(STATE_CHANGE_FIELDS);

/** `formsOf` reads a string of the payload in its forms; stage 7 passes the ones it has already read. */
export function universalInvariantFailures(payload: unknown, schema: ValueSchema, formsOf: (text: string) => TextForms = textForms): InvariantFailure[] {
  const failures: InvariantFailure[] = [];
  visit(payload, 'payload', (key, value, path) => {
    if (key !== null) {
      if (ACTION_FIELDS.has(key)) failures.push({ id: 'INV-001', path, message: `the payload names the action selection in field \`${key}\`` });
      if (SCORING.has(key)) failures.push({ id: 'INV-002', path, message: `the payload holds scoring data in field \`${key}\`` });
      if (STATE_FIELDS.has(key) || key.startsWith(STATE_CHANGE_PREFIX)) failures.push({ id: 'INV-003', path, message: `the payload tries to change state in field \`${key}\`` });
    }
    if (typeof value === 'string') {
      const forms = formsOf(value);
      const bypass = findPattern(GUARDRAIL_BYPASS, forms);
      if (bypass !== null) failures.push({ id: 'INV-004', path, message: 'the text suggests bypassing a guardrail', match: bypass });
      const reference = findPattern(EXTERNAL_REFERENCE, forms);
      if (reference !== null) failures.push({ id: 'INV-005', path, message: 'the text is not self-contained (a link or a "see more")', match: reference });
    }
  });
  for (const problem of lengthProblems(payload, schema, 'payload')) failures.push({ id: 'INV-006', ...problem });
  return failures;
}

/** Calls `each` for every value under `value` (with the key that holds it), depth first. */
function visit(value: unknown, path: string, each: (key: string | null, value: unknown, path: string) => void, key: string | null = null): void {
  each(key, value, path);
  if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${path}[${i}]`, each));
  else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) visit(item, `${path}.${name}`, each, name);
  }
}

/**
 * Every string of `value` has a `maxLength` in the schema that describes it, and respects it.
 * A value the schema does not describe is the schema check's business (it fails there).
 */
function lengthProblems(value: unknown, schema: ValueSchema | undefined, path: string): { path: string; message: string }[] {
  if (schema === undefined) return [];
  const variants = schema.anyOf ?? [schema];
  if (typeof value === 'string') {
    // An enum is bounded by its longest member, as the compiler holds it (ADEC4023, INV-006).
    const limits = variants.map(maxLengthOf).filter((limit): limit is number => limit !== undefined);
    if (limits.length === 0) return [{ path, message: 'the contract declares no maximum length for this string' }];
    const limit = Math.max(...limits);
    const length = Array.from(value).length;
    return length > limit ? [{ path, message: `the text is ${length} characters, over its limit of ${limit}` }] : [];
  }
  const problems: { path: string; message: string }[] = [];
  if (Array.isArray(value)) {
    const items = variants.map((variant) => variant.items).find((item) => item !== undefined);
    value.forEach((item, i) => problems.push(...lengthProblems(item, items, `${path}[${i}]`)));
  } else if (value !== null && typeof value === 'object') {
    const properties = variants.map((variant) => variant.properties).find((props) => props !== undefined);
    for (const [name, item] of Object.entries(value)) {
      if (properties !== undefined && Object.hasOwn(properties, name)) problems.push(...lengthProblems(item, properties[name], `${path}.${name}`));
    }
  }
  return problems;
}

/** The longest string `schema` allows: its `maxLength`, or its longest `enum` member. */
function maxLengthOf(schema: ValueSchema): number | undefined {
  if (schema.maxLength !== undefined) return schema.maxLength;
  const members = schema.enum;
  if (members === undefined || !members.every((m): m is string => typeof m === 'string')) return undefined;
  return Math.max(...members.map((m) => Array.from(m).length));
}
