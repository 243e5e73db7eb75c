/**
 * Literal data checked against a type: defaults of supplied attributes and signals
 * (written as expressions) and the values of golden tests (written as JSON-like data).
 * Both become the JSON value the runtime receives: timestamps as ISO text, durations in ms.
 */
import { durationMilliseconds, type Expr, type Value } from '@adec/grammar';
import { counted, type Span } from '@adec/diagnostics';
import { formatType, type JsonValue, type NumericRange, type Type } from '../model/index.js';
import type { DiagnosticSink } from './checker-context.js';
import { reportIfNotMember } from './enum-literals.js';
import { didYouMeanName } from './suggestions.js';
import { charLength } from './char-length.js';

/** Literal data, whichever syntax it was written in. */
export type LiteralNode =
  | { readonly kind: 'scalar'; readonly value: string | number | boolean | null; readonly span: Span; readonly durationMs?: number; readonly tooDeep?: true }
  | { readonly kind: 'list'; readonly items: readonly LiteralNode[]; readonly span: Span }
  | { readonly kind: 'record'; readonly entries: readonly LiteralEntry[]; readonly span: Span };

export interface LiteralEntry {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: LiteralNode;
}

/** The literal an expression spells, or undefined when it computes something. */
export function literalFromExpr(expr: Expr): LiteralNode | undefined {
  switch (expr.kind) {
    case 'NumberLiteral':
    case 'StringLiteral':
    case 'BooleanLiteral':
      return { kind: 'scalar', value: expr.value, span: expr.span };
    case 'NullLiteral':
      return { kind: 'scalar', value: null, span: expr.span };
    case 'DurationLiteral':
      return { kind: 'scalar', value: expr.text, durationMs: expr.milliseconds, span: expr.span };
    case 'UnaryExpr':
      return expr.operator === '-' && expr.operand.kind === 'NumberLiteral'
        ? { kind: 'scalar', value: -expr.operand.value, span: expr.span }
        : undefined;
    case 'ListExpr': {
      const items = expr.items.map(literalFromExpr);
      return items.every((i) => i !== undefined) ? { kind: 'list', items, span: expr.span } : undefined;
    }
    default:
      return undefined;
  }
}

export function literalFromValue(value: Value): LiteralNode {
  switch (value.kind) {
    case 'ValueScalar':
      return { kind: 'scalar', value: value.value, span: value.span, ...(value.tooDeep && { tooDeep: true }) };
    case 'ValueList':
      return { kind: 'list', items: value.items.map(literalFromValue), span: value.span };
    case 'ValueRecord':
      return {
        kind: 'record',
        entries: value.entries.map((e) => ({ key: e.key.name, keySpan: e.key.span, value: literalFromValue(e.value) })),
        span: value.span,
      };
  }
}

/**
 * Whose value a literal is. Defaults and test values must both respect ranges and lengths: a
 * default outside them is ADEC4021, and a test value outside them is ADEC4026, since the
 * runtime would refuse the test's request before any rule ran and the test would only ever
 * see a fail-safe YELLOW.
 */
export type LiteralCheckOptions = { readonly defaultOf: string } | { readonly test: string };

/**
 * The JSON value of `node` as a `type`, or undefined after reporting why it is not one
 * (ADEC3001 wrong kind, ADEC3006 not an enum member, ADEC4021 out of range).
 */
export function checkLiteral(node: LiteralNode, type: Type, sink: DiagnosticSink, options: LiteralCheckOptions): JsonValue | undefined {
  // A value nested deeper than the limit was reported by the parser (ADEC1010).
  if (type.kind === 'error' || (node.kind === 'scalar' && node.tooDeep)) return undefined;
  if (type.kind === 'optional') {
    return node.kind === 'scalar' && node.value === null ? null : checkLiteral(node, type.inner, sink, options);
  }
  const value = checkedLiteralValue(node, type, sink, options);
  if (value === MISMATCH) {
    // A string where a timestamp or duration is expected is quoted: its text is the problem.
    const found = describeLiteral(node, type.kind === 'timestamp' || type.kind === 'duration');
    sink.report('ADEC3001', node.span, { expected: formatType(type), found }, { label: `this is ${found}` });
    return undefined;
  }
  return value;
}

/** A literal of the wrong kind for its type, reported as ADEC3001 by `checkLiteral`. */
const MISMATCH = Symbol('mismatch');

/** `checkLiteral` for a type that is neither an error nor optional, `MISMATCH` not yet reported. */
function checkedLiteralValue(node: LiteralNode, type: Type, sink: DiagnosticSink, options: LiteralCheckOptions): JsonValue | undefined | typeof MISMATCH {
  if (node.kind === 'list') {
    if (type.kind !== 'list') return MISMATCH;
    const items = node.items.map((item) => checkLiteral(item, type.element, sink, options));
    return items.every((i) => i !== undefined) ? items : undefined;
  }
  if (node.kind === 'record') {
    if (type.kind !== 'record') return MISMATCH;
    return checkRecordLiteral(node, type, sink, options);
  }
  const value = node.value;
  switch (type.kind) {
    case 'bool':
      return typeof value === 'boolean' ? value : MISMATCH;
    case 'int':
    case 'float':
      if (typeof value !== 'number' || node.durationMs !== undefined || (type.kind === 'int' && !Number.isInteger(value))) return MISMATCH;
      return withinRange(value, type.range, 'is', type, node, sink, options) ? value : undefined;
    case 'string':
      if (typeof value !== 'string' || node.durationMs !== undefined) return MISMATCH;
      return withinRange(charLength(value), type.length, 'has a length that is', type, node, sink, options) ? value : undefined;
    case 'enum':
      if (typeof value !== 'string' || node.durationMs !== undefined) return MISMATCH;
      reportIfNotMember(sink, value, node, type);
      return type.members.includes(value) ? value : undefined;
    case 'timestamp':
      return typeof value === 'string' && isRfc3339Timestamp(value) ? value : MISMATCH;
    case 'duration': {
      if (node.durationMs !== undefined) return node.durationMs;
      // Whole milliseconds, as the runtime takes a duration on the wire.
      const ms = typeof value === 'string' ? durationMilliseconds(value) : value;
      return typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 ? ms : MISMATCH;
    }
    default:
      return MISMATCH;
  }
}

function checkRecordLiteral(
  node: Extract<LiteralNode, { kind: 'record' }>,
  type: Extract<Type, { kind: 'record' }>,
  sink: DiagnosticSink,
  options: LiteralCheckOptions,
): JsonValue | undefined {
  const result: Record<string, JsonValue> = {};
  let valid = true;
  for (const entry of node.entries) {
    const field = type.fields.find((f) => f.name === entry.key);
    if (field === undefined) {
      sink.report('ADEC2002', entry.keySpan, { type: formatType(type), name: entry.key }, didYouMeanName(entry.key, type.fields.map((f) => f.name)));
      valid = false;
      continue;
    }
    sink.recorder?.refer(entry.keySpan, sink.recorder.fieldTargets(field));
    const value = checkLiteral(entry.value, field.type, sink, options);
    if (value === undefined) valid = false;
    else result[entry.key] = value;
  }
  return valid ? result : undefined;
}

function withinRange(measure: number, range: NumericRange | undefined, verb: string, type: Type, node: LiteralNode, sink: DiagnosticSink, options: LiteralCheckOptions): boolean {
  if (range === undefined) return true;
  const tooLow = range.min !== undefined && measure < range.min;
  const tooHigh = range.max !== undefined && measure > range.max;
  if (!tooLow && !tooHigh) return true;
  const bound = tooLow ? `below the minimum ${range.min}` : `above the maximum ${range.max}`;
  if ('defaultOf' in options) {
    sink.report('ADEC4021', node.span, { name: options.defaultOf, problem: `${verb} ${bound}` });
  } else {
    const value = type.kind === 'string' ? `${counted(measure, 'character')} long` : `${measure}`;
    sink.report('ADEC4026', node.span, { test: options.test, problem: `gives a value outside its type ${formatType(type)}: it is ${value}, ${bound}` }, { label: `this is ${value}` });
  }
  return false;
}

/** How a literal reads in "expected …, found …". */
export function describeLiteral(node: LiteralNode, quoteText = false): string {
  if (node.kind === 'list') return 'a list';
  if (node.kind === 'record') return 'a record';
  if (node.durationMs !== undefined) return 'duration';
  const value = node.value;
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return quoteText ? `"${value}"` : 'string';
}

/**
 * RFC 3339 date-time (a date, a time and an explicit offset): exactly the timestamps the
 * runtime accepts on the wire (packages/runtime/src/context/wire-values.ts, held to the same
 * table by test/property/wire-timestamps.test.ts). A date alone or a time without seconds would pass
 * here and be refused there, and a test or a default would only ever see that refusal.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function isRfc3339Timestamp(text: string): boolean {
  const parts = RFC3339.exec(text);
  if (parts === null) return false;
  const [month, day, hour, minute, second] = parts.slice(2, 7).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return false;
  const ms = Date.parse(text.toUpperCase());
  if (!Number.isFinite(ms)) return false;
  // Date.parse rolls 2026-02-31 over to March; the local date of the instant must be the one written.
  const offset = parts[8]!.toUpperCase();
  const offsetMinutes = offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(ms + offsetMinutes * 60_000);
  return local.getUTCDate() === day && local.getUTCMonth() + 1 === month;
}

