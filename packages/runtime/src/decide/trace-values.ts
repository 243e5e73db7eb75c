/**
 * The values a predicate trace records, in the form a reader expects: the module computes with
 * durations as milliseconds, a trace shows them as ISO 8601 durations (`P30D`) wherever the
 * module says an attribute holds one (ActionSpec.durations). Everything else is recorded as the
 * predicate saw it.
 */
import { isoDuration } from '../context/wire-values.js';
import type { DurationShape } from '../module/module-metadata.js';

export function traceValue(value: unknown, shape: DurationShape): unknown {
  if (shape === true) return typeof value === 'number' ? isoDuration(value) : value;
  if ('items' in shape) return Array.isArray(value) ? value.map((item) => traceValue(item, shape.items)) : value;
  if (value === null || typeof value !== 'object') return value;
  const record = Object.create(null) as Record<string, unknown>;
  for (const [field, fieldValue] of Object.entries(value)) {
    const fieldShape = shape.fields.get(field);
    record[field] = fieldShape === undefined ? fieldValue : traceValue(fieldValue, fieldShape);
  }
  return record;
}
