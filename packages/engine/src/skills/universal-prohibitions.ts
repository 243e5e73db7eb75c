/**
 * docs/spec/skill-contract.md §4's universal prohibitions: content no skill may produce, whatever its own contract
 * prohibits besides. Patterns are matched against every string of the payload.
 */
export interface UniversalProhibition {
  readonly id: string;
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
