/**
 * The language's built-in functions, the only calls it has: one entry per function says
 * everything adec knows about it. Derived from this table, with no second list:
 * - the checker's signatures and did-you-mean (check/check-builtins.ts);
 * - code generation (generate/emit-expr.ts, from `lowering`);
 * - the analyses' interpreter (analyze/evaluate.ts, from `apply`; analyze/compile.ts calls it)
 *   and which calls the finite model can enumerate (analyze/finite-model.ts);
 * - the language server's completion and hover.
 * The TextMate grammar and the language guide's table cannot import it; a test reads them and
 * fails naming a function either misses or adds (packages/compiler/test/builtins/).
 * packages/compiler/test/property/expression-semantics.test.ts checks that `apply` and
 * `lowering` compute the same values.
 */
import { DURATION, FLOAT, INT, STRING, formatType, type Type } from './types.js';

/** What every argument of a built-in must be. */
export type ParameterKind = 'number' | 'text' | 'text-or-list' | 'duration';

/** `numeric`: int when every argument is int, else float; otherwise always `type`. */
export type ResultRule = { readonly kind: 'numeric' } | { readonly kind: 'fixed'; readonly type: Type };

/**
 * How generated code computes the call. Data, not text, so that the emitter keeps control of
 * precedence and helpers: `math` is `Math.<name>(…)`, `helper` a local function of
 * generate/runtime-helpers.ts, `method` a string method on the one argument, `length` the
 * length in characters or elements, `duration-read` the milliseconds divided by the unit,
 * `duration-make` the number times the unit rounded to whole milliseconds.
 */
export type BuiltinLowering =
  | { readonly kind: 'math'; readonly function: 'min' | 'max' | 'abs' | 'round' | 'floor' | 'ceil' }
  | { readonly kind: 'helper'; readonly helper: BuiltinHelper }
  | { readonly kind: 'method'; readonly method: 'toLowerCase' | 'toUpperCase' }
  | { readonly kind: 'length' }
  | { readonly kind: 'duration-read'; readonly unitMs: number }
  | { readonly kind: 'duration-make'; readonly unitMs: number };

/** The built-ins generated code calls as a local function (generate/runtime-helpers.ts). */
export type BuiltinHelper = 'clamp';

interface BuiltinCommon {
  /** Parameter names as hover and the reference show them; the arity is their number. */
  readonly parameters: readonly string[];
  readonly result: ResultRule;
  /** One line for hover, completion and the reference. */
  readonly doc: string;
  readonly lowering: BuiltinLowering;
  /**
   * The result is always one of the arguments (min, max, clamp), so the finite model can
   * enumerate the call from the order of its arguments alone.
   */
  readonly returnsAnArgument: boolean;
}

/** A built-in of numbers or durations (durations are numbers of milliseconds). */
export type NumericBuiltin = BuiltinCommon & { readonly accepts: 'number' | 'duration'; readonly apply: (...args: number[]) => number };

/** A built-in with `apply`, its value on present arguments of the accepted kind. */
export type Builtin =
  | NumericBuiltin
  | (BuiltinCommon & { readonly accepts: 'text'; readonly apply: (text: string) => string })
  | (BuiltinCommon & { readonly accepts: 'text-or-list'; readonly apply: (subject: string | readonly unknown[]) => number });

/** Milliseconds per unit of the duration conversions (language guide, "Durations"). */
export const DURATION_UNIT_MS = { days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1_000 } as const;

const NUMERIC: ResultRule = { kind: 'numeric' };
const fixed = (type: Type): ResultRule => ({ kind: 'fixed', type });

function mathFunction(name: 'min' | 'max' | 'abs' | 'round' | 'floor' | 'ceil', parameters: readonly string[], result: ResultRule, doc: string, apply: (...args: number[]) => number): NumericBuiltin {
  return { parameters, accepts: 'number', result, doc, apply, lowering: { kind: 'math', function: name }, returnsAnArgument: name === 'min' || name === 'max' };
}

/** `in_days(d)`: a duration read as a (fractional) number of the unit. */
function durationReader(unitMs: number, doc: string): NumericBuiltin {
  return { parameters: ['d'], accepts: 'duration', result: fixed(FLOAT), doc, apply: (ms) => ms / unitMs, lowering: { kind: 'duration-read', unitMs }, returnsAnArgument: false };
}

/** `days(n)`: a duration of n units; durations are whole milliseconds, so it is rounded. */
function durationMaker(unitMs: number, doc: string): NumericBuiltin {
  return {
    parameters: ['n'],
    accepts: 'number',
    result: fixed(DURATION),
    doc,
    apply: (n) => Math.round(n * unitMs),
    lowering: { kind: 'duration-make', unitMs },
    returnsAnArgument: false,
  };
}

/** Length in characters (code points, as `LENGTH` and JSON Schema `maxLength` count them) or elements. */
export function lengthOfTextOrList(subject: string | readonly unknown[]): number {
  return typeof subject === 'string' ? Array.from(subject).length : subject.length;
}

export const BUILTINS = {
  clamp: {
    parameters: ['value', 'min', 'max'],
    accepts: 'number',
    result: NUMERIC,
    doc: '`value` limited to `[min, max]`; int when every argument is int',
    apply: (value: number, low: number, high: number) => Math.min(Math.max(value, low), high),
    lowering: { kind: 'helper', helper: 'clamp' },
    returnsAnArgument: true,
  },
  min: mathFunction('min', ['a', 'b'], NUMERIC, 'the smaller of two numbers; int when both are int', Math.min),
  max: mathFunction('max', ['a', 'b'], NUMERIC, 'the larger of two numbers; int when both are int', Math.max),
  abs: mathFunction('abs', ['x'], NUMERIC, 'the absolute value of a number', Math.abs),
  round: mathFunction('round', ['x'], fixed(INT), 'the nearest whole number', Math.round),
  floor: mathFunction('floor', ['x'], fixed(INT), 'the largest whole number not above `x`', Math.floor),
  ceil: mathFunction('ceil', ['x'], fixed(INT), 'the smallest whole number not below `x`', Math.ceil),
  lower: {
    parameters: ['s'],
    accepts: 'text',
    result: fixed(STRING),
    doc: 'the string in lower case',
    apply: (text: string) => text.toLowerCase(),
    lowering: { kind: 'method', method: 'toLowerCase' },
    returnsAnArgument: false,
  },
  upper: {
    parameters: ['s'],
    accepts: 'text',
    result: fixed(STRING),
    doc: 'the string in upper case',
    apply: (text: string) => text.toUpperCase(),
    lowering: { kind: 'method', method: 'toUpperCase' },
    returnsAnArgument: false,
  },
  len: {
    parameters: ['x'],
    accepts: 'text-or-list',
    result: fixed(INT),
    doc: 'the length of a string or a list',
    apply: lengthOfTextOrList,
    lowering: { kind: 'length' },
    returnsAnArgument: false,
  },
  in_days: durationReader(DURATION_UNIT_MS.days, 'a duration as a number of days: `in_days(36h)` is 1.5'),
  in_hours: durationReader(DURATION_UNIT_MS.hours, 'a duration as a number of hours'),
  in_minutes: durationReader(DURATION_UNIT_MS.minutes, 'a duration as a number of minutes'),
  in_seconds: durationReader(DURATION_UNIT_MS.seconds, 'a duration as a number of seconds'),
  days: durationMaker(DURATION_UNIT_MS.days, 'a duration of `n` days, to the nearest millisecond: `days(1.5)` is 36h'),
  hours: durationMaker(DURATION_UNIT_MS.hours, 'a duration of `n` hours, to the nearest millisecond'),
  minutes: durationMaker(DURATION_UNIT_MS.minutes, 'a duration of `n` minutes, to the nearest millisecond'),
  seconds: durationMaker(DURATION_UNIT_MS.seconds, 'a duration of `n` seconds, to the nearest millisecond'),
} as const satisfies Readonly<Record<string, Builtin>>;

export type BuiltinName = keyof typeof BUILTINS;

/** Every built-in's name, in the order of the table (the order did-you-mean considers them). */
export const BUILTIN_NAMES = Object.keys(BUILTINS) as readonly BuiltinName[];

export function isBuiltinName(name: string): name is BuiltinName {
  return Object.hasOwn(BUILTINS, name);
}

/** The entry of a built-in, as the common shape (the table keeps each entry's literal type). */
export function builtin(name: BuiltinName): Builtin {
  return BUILTINS[name];
}

/** The result type as hover and the reference write it: `int | float`, `duration`. */
export function resultText(rule: ResultRule): string {
  return rule.kind === 'numeric' ? 'int | float' : formatType(rule.type);
}
