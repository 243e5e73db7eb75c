/**
 * The checks every skill's payload passes whatever its own contract says
 * (docs/spec/skill-contract.md §3.1, §4.1): the universal invariants INV-001..006 and the
 * universal prohibitions PROHIB-001..005. Their data is here, once, for the engine that applies
 * them (packages/engine/src/skills/universal-invariants.ts, validate-output.ts) and for the
 * compiler that states them in each skill's contract document.
 */

/** INV-001: payload fields that would name the action selection. */
export const ACTION_SELECTION_FIELDS: readonly string[] = ['selected_action', 'recommended_action', 'action_id'];
/** INV-002: payload fields that would carry scoring data. */
export const SCORING_FIELDS: readonly string[] = ['score', 'scores', 'ranking', 'rank', 'probability'];
/** INV-003: payload fields that would try to change state, besides any named `set_…`. */
export const STATE_CHANGE_FIELDS: readonly string[] = ['state', 'update_state'];
export const STATE_CHANGE_PREFIX = 'set_';
/** INV-004: text suggesting a guardrail be bypassed. */
export const GUARDRAIL_BYPASS = /\b(?:bypass|override|ignore|disable|skip|circumvent|get around)\b[^.!?]{0,40}\b(?:guardrails?|rules?|limits?|safety|restrictions?|constraints?|caps?)\b/i;
/** INV-005: text pointing elsewhere. */
export const EXTERNAL_REFERENCE = /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|org|net|io|app|co)\b|\b(?:see|read|learn) more\b|\bclick here\b/i;

export interface UniversalInvariant {
  readonly id: string;
  readonly description: string;
  /** What is checked, in words: the engine's check is code, not the check language. */
  readonly check: string;
}

const fieldNames = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
const asWrittenOrRead = (regex: RegExp) => `no string of the payload matches /${regex.source}/${regex.flags}, as written or as a reader sees it`;

export const UNIVERSAL_INVARIANTS: readonly UniversalInvariant[] = [
  { id: 'INV-001', description: 'the payload does not name the action selection', check: `no field named ${fieldNames(ACTION_SELECTION_FIELDS)}, at any depth of the payload` },
  { id: 'INV-002', description: 'the payload carries no scoring data', check: `no field named ${fieldNames(SCORING_FIELDS)}, at any depth of the payload` },
  { id: 'INV-003', description: 'the payload does not try to change state', check: `no field named ${fieldNames(STATE_CHANGE_FIELDS)} or starting with \`${STATE_CHANGE_PREFIX}\`, at any depth of the payload` },
  { id: 'INV-004', description: 'the payload does not suggest bypassing a guardrail', check: asWrittenOrRead(GUARDRAIL_BYPASS) },
  { id: 'INV-005', description: 'the payload is self-contained (no link, no "see more")', check: asWrittenOrRead(EXTERNAL_REFERENCE) },
  { id: 'INV-006', description: 'the payload keeps within its length limits', check: 'every string of the payload has a `maxLength` (or an `enum`) in the output schema and respects it' },
];

export interface UniversalProhibition {
  readonly id: string;
  /** Why it is prohibited. */
  readonly category: string;
  readonly regex: RegExp;
}

export const UNIVERSAL_PROHIBITIONS: readonly UniversalProhibition[] = [
  {
    id: 'PROHIB-001',
    category: 'Decision override attempt',
    regex: /\b(?:(?:i|we)(?:'d|'ll| would| do| strongly| really)* (?:recommend|suggest|advise|urge|propose)|you (?:should|ought to|had better|'d better)|you'd better|instead of|a better (?:option|choice)|rather than|my (?:recommendation|suggestion|advice) (?:is|would be))\b/i,
  },
  { id: 'PROHIB-002', category: 'Medical or legal advice', regex: /\b(?:cur(?:e|es|ed|ing)|treat(?:s|ed|ing|ment|ments)?|diagnos(?:e|es|ed|is|ing)|prescri(?:be|bes|bed|ption)|medical advice|legal advice|legally you)\b/i },
  { id: 'PROHIB-003', category: 'Urgency manipulation', regex: /\b(?:act now|limited time|hurry|last chance|don'?t miss out)\b/i },
  { id: 'PROHIB-004', category: 'Negative framing', regex: /\b(?:you failed|you(?:'re| are) behind|you fell behind|you(?:'re| are) lazy)\b/i },
  { id: 'PROHIB-005', category: 'Personal data echo', regex: /[\w.+-]+@[\w-]+\.[\w.-]+|\+?\d[\d\s().-]{7,}\d/ },
];
