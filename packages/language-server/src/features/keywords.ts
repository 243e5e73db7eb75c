/**
 * The words of the language by where they may start a clause, and the closed sets of
 * spellings the checker validates (outcomes, severities, modes). Completion offers them;
 * packages/language-server/test/keywords.test.ts checks that every keyword the lexer defines
 * (grammar/src/tokens.ts) is offered somewhere.
 */

import { WORK_FRAME_FIELDS, WORK_FRAME_LIST_FIELDS, WORK_FRAME_TEXT_FIELDS } from '@adec/compiler';

const TEMPLATE_FIELDS: readonly string[] = [...WORK_FRAME_TEXT_FIELDS, ...WORK_FRAME_LIST_FIELDS];

/** Clause words by the kind of block they start a line in. */
export const CLAUSE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  '': ['world', 'context', 'action', 'skill', 'scenario', 'test'],
  world: ['org', 'domain', 'version', 'name', 'timeout'],
  context: ['supplied', 'system', 'computed'],
  action: ['aggregate', 'context', 'rule', 'on'],
  rule: ['outcome', 'severity', 'applies_when', 'when', 'reason', 'suppresses', 'timeout', 'weight'],
  // The work_frame fields a template sets, in the order a decision writes them.
  on: Object.keys(WORK_FRAME_FIELDS).filter((field) => TEMPLATE_FIELDS.includes(field)),
  skill: ['version', 'type', 'description', 'prompt', 'timeout', 'hard_limit', 'fallback', 'action_metadata', 'user_state', 'output', 'invariant', 'prohibit', 'template', 'when'],
  scenario: ['version', 'signals', 'state', 'action_type', 'guardrail', 'objective', 'weight', 'execution_risk', 'tie_break', 'asc', 'desc', 'default_mode'],
  action_type: ['skill'],
  guardrail: ['when', 'block', 'force', 'cap'],
  test: ['action', 'scenario', 'context', 'system', 'signals', 'actions', 'model_reply', 'expect', 'by', 'reason', 'work_frame', 'missing_evidence', 'selected', 'NO_ELIGIBLE_ACTIONS', 'skill', 'output', 'validation', 'passed', 'failed'],
};

/** Words that build expressions (both spellings the SEC documents use). */
export const EXPRESSION_KEYWORDS: readonly string[] = [
  'and', 'or', 'not', 'in', 'if', 'then', 'else', 'true', 'false', 'null',
  'AND', 'OR', 'NOT', 'IF', 'THEN', 'ELSE', 'NULL',
  'IS', 'EQUALS', 'CONTAINS', 'CONTAINS_ANY', 'MATCHES', 'LENGTH',
];

export const TYPE_NAMES: readonly string[] = ['bool', 'int', 'float', 'string', 'timestamp', 'duration', 'list'];

export const OUTCOMES: readonly string[] = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED'];
export const SEVERITIES: readonly string[] = ['t1', 't2', 't3'];
export const AGGREGATION_MODES: readonly string[] = ['winner_takes_all', 'vote_of_n', 'weighted_sum_threshold'];
export const SKILL_TYPES: readonly string[] = ['llm', 'deterministic'];
export const DEFAULT_MODES: readonly string[] = ['skill_enhanced', 'deterministic_only'];

/** Every word completion can offer as a keyword. */
export const ALL_KEYWORDS: ReadonlySet<string> = new Set([...Object.values(CLAUSE_KEYWORDS).flat(), ...EXPRESSION_KEYWORDS, ...TYPE_NAMES]);
