/**
 * A tiny layout model for the object and array literals the module exports. Codegen builds
 * `Code` values and renders them once; short literals stay on one line, longer ones get one
 * entry per line, so a reviewer reads `_ACTIONS` or `_SCENARIOS` like hand-written data.
 */
import type { JsonValue } from '../model/index.js';
import { lineCommentText, propertyKey, stringLiteral } from './naming.js';

/** Raw TypeScript expression text (may span lines), or a structured literal. */
export type Code = string | CodeObject | CodeArray;

export interface CodeEntry {
  readonly key: string;
  readonly value: Code;
  /** A `//` comment written on its own line above the entry. */
  readonly comment?: string;
}

export interface CodeObject {
  readonly kind: 'object';
  readonly entries: readonly CodeEntry[];
}

export interface CodeArray {
  readonly kind: 'array';
  readonly items: readonly Code[];
}

const INLINE_LIMIT = 80;
const INDENT = '  ';

export function objectCode(entries: readonly (CodeEntry | undefined)[]): CodeObject {
  return { kind: 'object', entries: entries.filter((e): e is CodeEntry => e !== undefined) };
}

export function arrayCode(items: readonly Code[]): CodeArray {
  return { kind: 'array', items };
}

/** An entry, or `undefined` (dropped by `objectCode`) when `value` is undefined. */
export function entry(key: string, value: Code | undefined, comment?: string): CodeEntry | undefined {
  if (value === undefined) return undefined;
  return comment === undefined ? { key, value } : { key, value, comment };
}

/** A JSON value as a literal; object keys keep their insertion order. */
export function jsonCode(value: JsonValue): Code {
  if (typeof value === 'string') return stringLiteral(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (isJsonArray(value)) return arrayCode(value.map(jsonCode));
  return objectCode(Object.keys(value).map((key) => ({ key, value: jsonCode(value[key] ?? null) })));
}

function isJsonArray(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

/**
 * Renders `code`; continuation lines are indented relative to `indent`. `entryType` is the
 * type of the entries of the object `code` (for `Readonly<Record<string, T>>`, `T`): see
 * `entryValue`.
 */
export function renderCode(code: Code, indent = '', entryType?: string): string {
  if (typeof code === 'string') return code.split('\n').join(`\n${indent}`);
  const inline = renderInline(code, entryType);
  if (inline !== undefined && inline.length + indent.length <= INLINE_LIMIT) return inline;
  const inner = indent + INDENT;
  if (code.kind === 'array') {
    if (code.items.length === 0) return '[]';
    return `[\n${code.items.map((item) => `${inner}${renderCode(item, inner)},\n`).join('')}${indent}]`;
  }
  if (code.entries.length === 0) return '{}';
  const lines = code.entries.map((e) => {
    const comment = e.comment === undefined ? '' : `${inner}// ${lineCommentText(e.comment)}\n`;
    return `${comment}${inner}${propertyKey(e.key)}: ${entryValue(e, renderCode(e.value, inner), entryType)},\n`;
  });
  return `{\n${lines.join('')}${indent}}`;
}

/**
 * An entry's value. Under a key that names a member of every object (`constructor`,
 * `toString`, …: an action or rule may be called so), TypeScript types the value by that
 * member instead of by the record's entry type, so `"RED"` would widen to `string` and fail
 * the check: such a literal is written `… as const satisfies T`, which keeps it checked
 * against T. (Functions carry their own types and need nothing.)
 */
function entryValue(entry: CodeEntry, value: string, entryType: string | undefined): string {
  if (entryType === undefined || !OBJECT_MEMBERS.has(entry.key)) return value;
  const literal = typeof entry.value !== 'string' || entry.value.startsWith('"');
  return literal ? `${value} as const satisfies ${entryType}` : value;
}

const OBJECT_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The one-line form, or undefined when the literal has comments or multi-line parts. */
function renderInline(code: Code, entryType?: string): string | undefined {
  if (typeof code === 'string') return code.includes('\n') ? undefined : code;
  if (code.kind === 'array') {
    const items: string[] = [];
    for (const item of code.items) {
      const text = renderInline(item);
      if (text === undefined) return undefined;
      items.push(text);
    }
    return `[${items.join(', ')}]`;
  }
  if (code.entries.length === 0) return '{}';
  const parts: string[] = [];
  for (const e of code.entries) {
    if (e.comment !== undefined) return undefined;
    const text = renderInline(e.value);
    if (text === undefined) return undefined;
    parts.push(`${propertyKey(e.key)}: ${entryValue(e, text, entryType)}`);
  }
  return `{ ${parts.join(', ')} }`;
}
