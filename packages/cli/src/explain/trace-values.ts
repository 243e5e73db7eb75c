/**
 * A predicate trace's recorded values, read back in the two forms an explanation needs: the
 * form the module computed with (durations in ms, to re-evaluate a condition) and the form a
 * person reads (durations as "2 hours 30 minutes", timestamps as ISO 8601).
 */
import type { JsonValue, Type } from '@adec/compiler';
import { durationText, isoDurationMs } from '@adec/runtime';

/** As the module computed with it: a duration the trace shows as ISO 8601 is milliseconds again. */
export function computedForm(value: unknown, type: Type): JsonValue | undefined {
  return value === undefined ? undefined : (inMilliseconds(value, type) as JsonValue | undefined);
}

/** As a person reads it: strings quoted, durations spoken, timestamps in ISO 8601. */
export function readableValue(value: unknown, type: Type): string {
  const inner = type.kind === 'optional' ? type.inner : type;
  if (value === null || value === undefined) return 'null';
  if (inner.kind === 'duration') {
    const ms = typeof value === 'string' ? isoDurationMs(value) : value;
    return typeof ms === 'number' ? durationText(ms) : JSON.stringify(value);
  }
  if (inner.kind === 'timestamp' && typeof value === 'number') return new Date(value).toISOString();
  if (inner.kind === 'list' && Array.isArray(value)) return `[${value.map((item) => readableValue(item, inner.element)).join(', ')}]`;
  if (inner.kind === 'record' && typeof value === 'object') {
    const record = value as Readonly<Record<string, unknown>>;
    return `{ ${inner.fields.map((f) => `${f.name}: ${readableValue(record[f.name], f.type)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** The value with every ISO 8601 duration its type says it holds in ms (a bundle built before traces showed durations already has ms). */
function inMilliseconds(value: unknown, type: Type): unknown {
  if (value === null) return null;
  switch (type.kind) {
    case 'duration':
      return typeof value === 'string' ? isoDurationMs(value) : value;
    case 'optional':
      return inMilliseconds(value, type.inner);
    case 'list':
      return Array.isArray(value) ? value.map((item) => inMilliseconds(item, type.element)) : value;
    case 'record': {
      if (typeof value !== 'object') return value;
      const record = value as Readonly<Record<string, unknown>>;
      return Object.fromEntries(type.fields.map((f) => [f.name, inMilliseconds(record[f.name], f.type)]));
    }
    default:
      return value;
  }
}
