/** The records of values a test writes: `context { … }`, `signals { … }`, an action, `expect work_frame { … }`. */
import type { Span } from '@adec/diagnostics';
import type { ValueRecord } from '@adec/grammar';
import type { JsonValue, Type } from '../model/index.js';
import { repeatedRecordKey, type DiagnosticSink } from './checker-context.js';
import { checkLiteral, literalFromValue } from './literal-values.js';

/**
 * Checks each entry of a record of test values against the type `typeOf` gives its key
 * (undefined: already reported, or `passThrough`). Returns the JSON record, or undefined if
 * any entry was wrong.
 */
export function checkRecordValues(
  record: ValueRecord | undefined,
  test: string,
  sink: DiagnosticSink,
  typeOf: (key: { name: string; span: Span }) => Type | undefined,
  passThrough: ReadonlySet<string> = new Set(),
): { [key: string]: JsonValue } | undefined {
  const result: { [key: string]: JsonValue } = {};
  let valid = true;
  const seen = new Map<string, Span>();
  for (const entry of record?.entries ?? []) {
    const key = entry.key.name;
    if (repeatedRecordKey(entry.key, seen, sink)) {
      valid = false;
      continue;
    }
    const type = typeOf(entry.key);
    if (type === undefined) {
      if (passThrough.has(key) && entry.value.kind === 'ValueScalar' && entry.value.value !== null) result[key] = entry.value.value;
      else valid = false;
      continue;
    }
    const value = checkLiteral(literalFromValue(entry.value), type, sink, { test });
    if (value === undefined) valid = false;
    else result[key] = value;
  }
  return valid ? result : undefined;
}
