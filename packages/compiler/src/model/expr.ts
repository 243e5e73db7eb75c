/**
 * Checked expressions: every node is resolved and carries its type. This is what codegen
 * translates to TypeScript; it never sees an unresolved name or an ill-typed operator.
 */
import type { Span } from '@adec/diagnostics';
import type { BuiltinName } from './builtins.js';
import type { Type } from './types.js';

export type CheckedExpr =
  | LiteralExpr
  | RefExpr
  | FieldExpr
  | BuiltinCallExpr
  | ListLiteralExpr
  | NotExpr
  | NegateExpr
  | LogicalExpr
  | CompareExpr
  | ArithmeticExpr
  | CoalesceExpr
  | StringTestExpr
  | MembershipExpr
  | RegexTestExpr
  | IsNullExpr
  | LengthCompareExpr
  | IfExpr;

interface Node {
  readonly type: Type;
  readonly span: Span;
}

/** Literal values: durations are already in ms; `null` is the null literal. */
export interface LiteralExpr extends Node {
  readonly kind: 'literal';
  readonly value: boolean | number | string | null;
}

/**
 * A resolved top-level name. `root` says which evaluation environment holds it:
 * - `context`: an adjudication context attribute (supplied, system or computed)
 * - `signal` / `state`: scenario signals and derived state
 * - `action`: the candidate action in a scenario (`action` itself, or `action_id`)
 * - `payload` / `action_metadata` / `user_state` / `decision_context`: SEC invariant roots
 */
export interface RefExpr extends Node {
  readonly kind: 'ref';
  readonly root: RefRoot;
  /** The attribute name, or the root's own name for `payload`, `action`, … */
  readonly name: string;
}

export type RefRoot =
  | 'context'
  | 'signal'
  | 'state'
  | 'action'
  | 'payload'
  | 'action_metadata'
  | 'user_state'
  | 'decision_context';

/** `object.name`; `optional` is true when `object` may be absent (compiles to `?.`). */
export interface FieldExpr extends Node {
  readonly kind: 'field';
  readonly object: CheckedExpr;
  readonly name: string;
  readonly optional: boolean;
  /** A candidate's field some action types lack: those types (RecordField.absentFrom). */
  readonly absentFrom?: readonly string[];
}

/** A call of a built-in function (builtins.ts). */
export interface BuiltinCallExpr extends Node {
  readonly kind: 'call';
  readonly name: BuiltinName;
  readonly args: readonly CheckedExpr[];
}

export interface ListLiteralExpr extends Node {
  readonly kind: 'list';
  readonly items: readonly CheckedExpr[];
}

export interface NotExpr extends Node {
  readonly kind: 'not';
  readonly operand: CheckedExpr;
}

export interface NegateExpr extends Node {
  readonly kind: 'negate';
  readonly operand: CheckedExpr;
}

export interface LogicalExpr extends Node {
  readonly kind: 'logical';
  readonly operator: 'and' | 'or';
  readonly left: CheckedExpr;
  readonly right: CheckedExpr;
}

/**
 * `== != < <= > >=` (and `EQUALS`, normalized to `==`). Equality with an optional operand
 * is null-safe: absent equals only absent.
 */
export interface CompareExpr extends Node {
  readonly kind: 'compare';
  readonly operator: '==' | '!=' | '<' | '<=' | '>' | '>=';
  readonly left: CheckedExpr;
  readonly right: CheckedExpr;
}

/**
 * `+ - * / %` over numbers; `timestamp - timestamp → duration`,
 * `timestamp ± duration → timestamp`, `duration ± duration → duration`; `+` on strings
 * concatenates. `/` always yields float.
 */
export interface ArithmeticExpr extends Node {
  readonly kind: 'arithmetic';
  readonly operator: '+' | '-' | '*' | '/' | '%';
  readonly left: CheckedExpr;
  readonly right: CheckedExpr;
}

/** `a ?? b`: `a` unless it is absent. */
export interface CoalesceExpr extends Node {
  readonly kind: 'coalesce';
  readonly left: CheckedExpr;
  readonly right: CheckedExpr;
}

/**
 * SEC string operators. `CONTAINS`: substring (string, string) or element (list<T>, T).
 * `CONTAINS_ANY`: any substring (string, list<string>) or any element (list<T>, list<T>).
 */
export interface StringTestExpr extends Node {
  readonly kind: 'contains';
  readonly mode: 'substring' | 'element';
  readonly any: boolean;
  readonly negated: boolean;
  readonly subject: CheckedExpr;
  readonly needle: CheckedExpr;
}

/** `x in [a, b]` / `x in list_attribute`. */
export interface MembershipExpr extends Node {
  readonly kind: 'in';
  readonly element: CheckedExpr;
  readonly list: CheckedExpr;
}

/**
 * `MATCHES` / `NOT MATCHES` against a pattern validated at build time. `source` is the
 * JavaScript pattern (a leading `(?i)` already turned into the `i` flag).
 */
export interface RegexTestExpr extends Node {
  readonly kind: 'matches';
  readonly negated: boolean;
  readonly subject: CheckedExpr;
  readonly source: string;
  readonly flags: string;
}

export interface IsNullExpr extends Node {
  readonly kind: 'isNull';
  readonly negated: boolean;
  readonly operand: CheckedExpr;
}

/** SEC `LENGTH <op>`: the length of a string (characters) or list. */
export interface LengthCompareExpr extends Node {
  readonly kind: 'length';
  readonly operator: '==' | '!=' | '<' | '<=' | '>' | '>=';
  readonly operand: CheckedExpr;
  readonly limit: CheckedExpr;
}

/** `if c then a else b`; `IF c THEN b` without else is desugared to `not c or b`. */
export interface IfExpr extends Node {
  readonly kind: 'if';
  readonly condition: CheckedExpr;
  readonly consequent: CheckedExpr;
  readonly alternate: CheckedExpr;
}

/** An interpolated string: text parts and expressions, rendered with `String(value)`. */
export interface CheckedTemplate {
  readonly parts: readonly (string | CheckedExpr)[];
  readonly span: Span;
}

/** The operands of `expr`, left to right. */
export function childExpressions(expr: CheckedExpr): readonly CheckedExpr[] {
  switch (expr.kind) {
    case 'literal':
    case 'ref':
      return [];
    case 'field':
      return [expr.object];
    case 'call':
      return expr.args;
    case 'list':
      return expr.items;
    case 'not':
    case 'negate':
      return [expr.operand];
    case 'logical':
    case 'compare':
    case 'arithmetic':
    case 'coalesce':
      return [expr.left, expr.right];
    case 'contains':
      return [expr.subject, expr.needle];
    case 'in':
      return [expr.element, expr.list];
    case 'matches':
      return [expr.subject];
    case 'isNull':
      return [expr.operand];
    case 'length':
      return [expr.operand, expr.limit];
    case 'if':
      return [expr.condition, expr.consequent, expr.alternate];
  }
}
