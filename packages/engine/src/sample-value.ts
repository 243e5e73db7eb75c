/**
 * A value of a JSON Schema's shape (the subset adec writes, @adec/abi value-schema.ts), for the
 * synthetic inputs that warm a module up at load (prepare-selection.ts): the smallest number the
 * schema allows, the first of an enum, null for an optional value, a plain sentence cut to the
 * string's length limits. A `pattern` is not followed: a value it refuses makes the warm-up
 * request invalid, which preparation reports rather than fails on.
 */
import type { ValueSchema, ValueType } from '@adec/abi';

/** Every string: plain text, which every text check of stage 7 reads in full. */
const SAMPLE_TEXT = 'A short session today keeps the habit going.';
const SAMPLE_TIMESTAMP = '2026-01-01T00:00:00Z';

/** `optional: 'null'` answers null for an optional value (a request may leave it out); `'value'` fills it in (a payload shows it). */
export function sampleValue(schema: ValueSchema, optional: 'null' | 'value' = 'value'): unknown {
  if (schema.enum !== undefined) return schema.enum[0] ?? null;
  if (schema.anyOf !== undefined) {
    const present = schema.anyOf.find((option) => option.type !== 'null');
    return optional === 'null' || present === undefined ? null : sampleValue(present, optional);
  }
  const types: readonly ValueType[] = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  // A duration is text or milliseconds: the number needs no pattern.
  if (types.includes('integer') || types.includes('number')) {
    const smallest = schema.minimum ?? Math.min(0, schema.maximum ?? 0);
    // A whole number for an integer (or a duration in ms) however the bound is written.
    return types.includes('integer') ? (schema.minimum !== undefined ? Math.ceil(smallest) : Math.floor(smallest)) : smallest;
  }
  if (types.includes('string')) return schema.format === 'date-time' ? SAMPLE_TIMESTAMP : SAMPLE_TEXT.slice(0, schema.maxLength).padEnd(schema.minLength ?? 0, '.');
  if (types.includes('boolean')) return false;
  if (types.includes('array')) return schema.items === undefined ? [] : [sampleValue(schema.items, optional)];
  if (types.includes('object')) return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleValue(property, optional)]));
  return null;
}
