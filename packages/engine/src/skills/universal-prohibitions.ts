/**
 * SEC §4's universal prohibitions: content no skill may produce, whatever its own contract
 * prohibits besides. Patterns are matched against every string of the payload.
 */
export interface UniversalProhibition {
  readonly id: string;
  readonly category: string;
  readonly regex: RegExp;
}

export const UNIVERSAL_PROHIBITIONS: readonly UniversalProhibition[] = [
  { id: 'PROHIB-001', category: 'Decision override attempt', regex: /\b(?:i recommend|you should|instead of|a better (?:option|choice)|rather than)\b/i },
  { id: 'PROHIB-002', category: 'Medical or legal advice', regex: /\b(?:cure|treat|diagnose|medical advice|legal advice|legally you)\b/i },
  { id: 'PROHIB-003', category: 'Urgency manipulation', regex: /\b(?:act now|limited time|hurry|last chance|don'?t miss out)\b/i },
  { id: 'PROHIB-004', category: 'Negative framing', regex: /\b(?:you failed|you(?:'re| are) behind|you fell behind|you(?:'re| are) lazy)\b/i },
  { id: 'PROHIB-005', category: 'Personal data echo', regex: /[\w.+-]+@[\w-]+\.[\w.-]+|\+?\d[\d\s().-]{7,}\d/ },
];
