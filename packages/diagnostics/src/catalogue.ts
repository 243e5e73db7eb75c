/**
 * The one catalogue of adec diagnostics: every code the toolchain can report, its
 * severity and its message template. Phases never write message text inline; they name a
 * code and fill the template's `{placeholders}`. A test fails if a code here has no
 * invalid-world fixture exercising it (test/diagnostics).
 *
 * Ranges: ADEC1xxx syntax · ADEC2xxx names · ADEC3xxx types · ADEC4xxx semantics ·
 * ADEC5xxx warnings · ADEC9xxx internal compiler errors (bugs in adec, not in the world).
 *
 * Message style (after Cedar): lowercase, no final period, user input in backticks.
 */
export type Severity = 'error' | 'warning';

export interface CatalogueEntry {
  readonly severity: Severity;
  readonly message: string;
}

export const CATALOGUE = {
  // ── Syntax ────────────────────────────────────────────────────────────────
  ADEC1001: { severity: 'error', message: 'unexpected character `{char}`' },
  ADEC1002: { severity: 'error', message: 'unterminated string literal' },
  ADEC1003: { severity: 'error', message: 'expected {expected}, found {found}' },
  ADEC1004: { severity: 'error', message: 'unexpected end of file: expected {expected}' },
  ADEC1005: { severity: 'error', message: 'invalid duration `{text}`: expected a number followed by ms, s, m, h or d' },
  ADEC1006: { severity: 'error', message: 'unterminated block comment' },
  ADEC1007: { severity: 'error', message: 'invalid interpolation in string: {problem}' },
  ADEC1008: { severity: 'error', message: 'number `{text}` is out of range' },
  ADEC1009: { severity: 'error', message: 'lone surrogate `{unit}` is not a character' },
  ADEC1010: { severity: 'error', message: 'nested deeper than {limit} levels' },
  ADEC1011: { severity: 'error', message: 'unclosed `{open}`: expected {expected} before {found}' },

  // ── Names ─────────────────────────────────────────────────────────────────
  ADEC2001: { severity: 'error', message: 'unknown name `{name}`' },
  ADEC2002: { severity: 'error', message: '`{type}` has no field `{name}`' },
  ADEC2003: { severity: 'error', message: 'unknown rule `{name}` in `suppresses`' },
  ADEC2004: { severity: 'error', message: 'unknown skill `{name}`' },
  ADEC2005: { severity: 'error', message: 'unknown action type `{name}` in scenario `{scenario}`' },
  ADEC2006: { severity: 'error', message: 'unknown action `{name}`' },
  ADEC2007: { severity: 'error', message: 'unknown scenario `{name}`' },
  ADEC2008: { severity: 'error', message: 'unknown function `{name}`' },
  ADEC2009: { severity: 'error', message: 'unknown type `{name}`' },
  ADEC2010: { severity: 'error', message: 'duplicate {kind} `{name}`' },
  ADEC2011: { severity: 'error', message: 'unknown system attribute `{name}`: system values are request_time, request_id and authenticated_caller' },
  ADEC2012: { severity: 'error', message: 'invariant `{invariant}` reads `payload.{name}`, which is not in the output schema of skill `{skill}`' },
  ADEC2013: { severity: 'error', message: 'unknown work_frame field `{name}`' },
  ADEC2014: { severity: 'error', message: 'unknown attribute `{name}` in test context of action `{action}`' },
  ADEC2015: { severity: 'error', message: '`{name}` cannot name a {kind}: every JavaScript object already has a `{name}` property' },
  ADEC2030: { severity: 'error', message: 'unknown reason code `{name}`' },
  ADEC2031: { severity: 'error', message: 'test expects missing evidence `{name}`, which is not a supplied attribute of action `{action}`' },

  // ── Types ─────────────────────────────────────────────────────────────────
  ADEC3001: { severity: 'error', message: 'expected {expected}, found {found}' },
  ADEC3002: { severity: 'error', message: '`{clause}` must be bool, found {found}' },
  ADEC3003: { severity: 'error', message: 'operator `{op}` cannot be applied to {left} and {right}' },
  ADEC3004: { severity: 'error', message: '{op} expects {expected} on the {side}, found {found}' },
  ADEC3005: { severity: 'error', message: 'cannot compare {left} with {right}' },
  ADEC3006: { severity: 'error', message: '"{value}" is not a member of {type}' },
  ADEC3007: { severity: 'error', message: '`{name}` may be absent ({type}); use `??` or check `IS NOT NULL` first' },
  ADEC3008: { severity: 'error', message: 'invalid regular expression: {problem}' },
  ADEC3009: { severity: 'error', message: '`{name}` expects {expected} argument(s), found {found}' },
  ADEC3010: { severity: 'error', message: 'list elements must have one type: found {first} and {other}' },
  ADEC3011: { severity: 'error', message: 'objective `{name}` must be a number, found {found}' },
  ADEC3012: { severity: 'error', message: 'cannot interpolate {type} into a string' },
  ADEC3013: { severity: 'error', message: 'the divisor `{divisor}` {problem}' },

  // ── Semantics ─────────────────────────────────────────────────────────────
  ADEC4001: { severity: 'error', message: 'the world has no `world` header: add `world { org "…" domain "…" version "…" }`' },
  ADEC4002: { severity: 'error', message: 'the world has more than one `world` header' },
  ADEC4003: { severity: 'error', message: '`{clause}` is required in {owner}' },
  ADEC4004: { severity: 'error', message: 'invalid version `{text}`: expected semantic versioning (MAJOR.MINOR.PATCH)' },
  ADEC4005: { severity: 'error', message: 'invalid outcome `{text}`: expected GREEN, GREEN-SKIP, YELLOW or RED' },
  ADEC4006: { severity: 'error', message: 'invalid severity `{text}`: expected t1, t2 or t3' },
  ADEC4007: { severity: 'error', message: 'rule `{rule}` cannot suppress T1 rule `{target}`: T1 rules are never suppressed' },
  ADEC4008: { severity: 'error', message: 'rule `{rule}` cannot suppress `{target}`: {problem}' },
  ADEC4009: { severity: 'error', message: '`{clause}` appears more than once in {owner}' },
  ADEC4010: { severity: 'error', message: 'invalid aggregation mode `{text}`: expected winner_takes_all, vote_of_n or weighted_sum_threshold' },
  ADEC4011: { severity: 'error', message: 'aggregation `{mode}` {problem}' },
  ADEC4012: { severity: 'error', message: 'weight {value} of `{name}` is out of range: weights must be between 0 and 1' },
  ADEC4013: { severity: 'error', message: 'objective weights of scenario `{scenario}` sum to {sum}, they must sum to 1' },
  ADEC4014: { severity: 'error', message: 'computed attribute `{name}` depends on itself: {cycle}' },
  ADEC4015: { severity: 'error', message: 'invalid status `{text}`: expected GREEN, GREEN-SKIP, YELLOW or RED' },
  ADEC4016: { severity: 'error', message: 'skill `{skill}` falls back to `{fallback}`, {problem}' },
  ADEC4017: { severity: 'error', message: 'invalid timeout: {problem}' },
  ADEC4018: { severity: 'error', message: 'action type `{actionType}` uses skill `{skill}` but {problem}' },
  ADEC4019: { severity: 'error', message: 'invalid range: {problem}' },
  ADEC4020: { severity: 'error', message: 'test expects rule `{rule}`, which is not a rule of action `{action}`' },
  ADEC4021: { severity: 'error', message: 'default value of `{name}` {problem}' },
  ADEC4022: { severity: 'error', message: 'system attribute `{name}` has type {found}, it must be {expected}' },
  ADEC4023: { severity: 'error', message: '{kind} skill `{skill}` {problem}' },
  ADEC4024: { severity: 'error', message: 'scenario `{scenario}` {problem}' },
  ADEC4025: { severity: 'error', message: 'invalid skill type `{text}`: expected llm or deterministic' },
  ADEC4026: { severity: 'error', message: 'test `{test}` {problem}' },
  ADEC4027: { severity: 'error', message: 'skill `{skill}` reads user_state `{name}`, but {problem}' },
  ADEC4030: { severity: 'error', message: 'test `{test}` cannot test a skill: it {problem}' },
  ADEC4031: { severity: 'error', message: 'skill `{skill}` has no output field `{name}`' },
  ADEC4032: { severity: 'error', message: 'no check `{id}` can fail in the output of skill `{skill}`' },

  // ── Warnings ──────────────────────────────────────────────────────────────
  ADEC5001: { severity: 'warning', message: 'this condition is always true' },
  ADEC5002: { severity: 'warning', message: 'this condition is always false' },
  ADEC5003: { severity: 'warning', message: 'rule `{rule}` can never decide the outcome: {reason}' },
  ADEC5004: { severity: 'warning', message: 'regular expression is prone to catastrophic backtracking: {problem}' },
  ADEC5005: { severity: 'warning', message: '`{name}` cannot be absent ({type}), so `{op}` has no effect' },
  ADEC5006: { severity: 'warning', message: 'context attribute `{name}` is never used' },
  ADEC5007: { severity: 'warning', message: 'weight of rule `{rule}` is ignored: action `{action}` aggregates with `{mode}`' },
  ADEC5008: { severity: 'warning', message: 'template `{template}` can never be chosen: {reason}' },
  ADEC5009: { severity: 'warning', message: '`{field}` names `{name}`, which is not an action of the world but is close to one' },
  ADEC5010: { severity: 'warning', message: '{outcome} rule `{rule}` has no `reason`, so nothing explains its outcome to the agent' },
  ADEC5011: { severity: 'warning', message: 'rule `{rule}` suppresses `{target}`, but the two can never match together, so the suppression never takes effect' },

  // ── Internal compiler errors ──────────────────────────────────────────────
  ADEC9001: { severity: 'error', message: 'internal compiler error: {problem}' },
} as const satisfies Record<string, CatalogueEntry>;

export type DiagnosticCode = keyof typeof CATALOGUE;

/** Every catalogued code, in numeric order. */
export const DIAGNOSTIC_CODES = Object.keys(CATALOGUE).sort() as DiagnosticCode[];
