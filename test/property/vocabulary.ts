/**
 * The language's vocabulary for random sources: keywords, operators, literals, names and a
 * few deliberately broken pieces (unterminated strings and comments, stray characters).
 */
import fc from 'fast-check';
import type { WorldSources } from '@adec/compiler';

export const KEYWORDS = [
  'world', 'org', 'domain', 'version', 'name', 'timeout', 'context', 'supplied', 'system', 'computed',
  'action', 'aggregate', 'winner_takes_all', 'vote_of_n', 'weighted_sum_threshold', 'rule', 'outcome',
  'severity', 'applies_when', 'when', 'reason', 'suppresses', 'weight', 'on', 'GREEN', 'GREEN-SKIP',
  'YELLOW', 'RED', 't1', 't2', 't3', 'skill', 'type', 'llm', 'deterministic', 'description', 'prompt',
  'hard_limit', 'fallback', 'action_metadata', 'user_state', 'output', 'invariant', 'prohibit', 'template',
  'scenario', 'signals', 'state', 'action_type', 'guardrail', 'force', 'block', 'cap', 'objective',
  'execution_risk', 'tie_break', 'asc', 'desc', 'default_mode', 'skill_enhanced', 'deterministic_only',
  'test', 'expect', 'by', 'selected', 'NO_ELIGIBLE_ACTIONS', 'actions', 'mode', 'next_action',
  'allowed_actions', 'forbidden_actions', 'required_output', 'next_human_owner',
  'bool', 'int', 'float', 'string', 'timestamp', 'duration', 'list', 'request_time', 'request_id',
  'authenticated_caller',
] as const;

export const OPERATORS = [
  '{', '}', '(', ')', '[', ']', '<', '>', ':', ',', '.', '=', '==', '!=', '<=', '>=', '+', '-', '*', '/',
  '%', '??', '?', '|', '..', 'and', 'or', 'not', 'AND', 'OR', 'NOT', 'if', 'then', 'else', 'IF', 'THEN',
  'CONTAINS', 'NOT CONTAINS', 'CONTAINS_ANY', 'NOT CONTAINS_ANY', 'MATCHES', 'NOT MATCHES', 'IS NULL',
  'IS NOT NULL', 'EQUALS', 'LENGTH', 'in', 'true', 'false', 'null',
] as const;

export const LITERALS = [
  '"child"', "'spouse'", '"1.0.0"', '"{amount}"', '"a {b.c} d"', '"{{literal}}"', '"(?i)(injury|pain)"',
  "'\\d+(\\.\\d+)?\\s*(fatigue|tired)'", '"^(a+)+$"', '"(unclosed"', '26', '0', '0.5', '1.5', '-3',
  '123456789012345678901234567890', '1e3', '500ms', '7d', '18h', '30s', '5m', '3w', '12xyz',
] as const;

export const NAMES = [
  'amount', 'relationship', 'dependent_age', 'documents', 'over_age', 'payload', 'payload.rationale',
  'action.intensity', 'action_metadata.session_name', 'user_state.engagement_level', 'action_id',
  'clamp', 'min', 'max', 'abs', 'round', 'len', 'lower', 'x', 'r1', 'fitness_session_rationale',
] as const;

/** Pieces that break the lexer: unterminated strings/comments, stray and non-ASCII characters. */
export const BROKEN = [
  '"unterminated', "'also unterminated", '/*', '*/', '// comment\n', '/* block */', '@', '#', '$', '`',
  '\\', '~', '^', '&', '&&', '||', '≥', 'é', '😀', '\u200b', '\u0000', '\t', '\r\n', '\n', '{{', '}}',
] as const;

export const VOCABULARY: readonly string[] = [...KEYWORDS, ...OPERATORS, ...LITERALS, ...NAMES, ...BROKEN];

const separator = fc.constantFrom(' ', ' ', ' ', '\n', '\n  ', '', '\t');

/** A random sequence of vocabulary tokens, as one single-file world. */
export function tokenSoup(): fc.Arbitrary<WorldSources> {
  return fc
    .array(fc.tuple(fc.constantFrom(...VOCABULARY), separator), { maxLength: 160 })
    .map((pairs) => pairs.map(([token, sep]) => token + sep).join(''))
    .map((text) => ({ root: 'soup', files: [{ path: 'soup/soup.adec', text }] }));
}
