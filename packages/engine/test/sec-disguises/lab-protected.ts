/**
 * What the SEC lab world (packages/engine/test/worlds/sec-lab) protects, each with the sentence that says
 * it and the rules that must catch it: the rival candidates' titles and ids (the authority
 * boundary), the universal prohibitions, the skill's own prohibition and its text invariants,
 * the universal invariants that read text, and ranking. The selected note is `note-a` about
 * the weather; every sentence otherwise keeps the lab's invariants (it names the topic, says
 * "today", starts with a capital, stays short), so only the disguised phrase can fail it.
 */
import type { CandidateAction } from '@adec/engine';
import { disguisesOf } from './generate-disguises.js';

export const SELECTED: CandidateAction = { action_id: 'note-a', type: 'note', title: 'Morning digest', topic: 'weather', priority: 5 };
export const RIVALS: readonly CandidateAction[] = [
  { action_id: 'quiet-1', type: 'quiet', title: 'Quiet hour' },
  { action_id: 'note-b', type: 'note', title: 'Evening recap', topic: 'sports', priority: 3 },
  { action_id: 'stretchBreak', type: 'quiet', title: 'Stretch break' },
];
export const LAB_CANDIDATES: readonly CandidateAction[] = [SELECTED, ...RIVALS];
export const LAB_SIGNALS = { visits: 4 };

/** A reply that passes every check: the control of every variant. */
export const VALID_REPLY = { text: 'The weather today: bright and clear.', title: 'Morning digest' };

export interface ProtectedPhrase {
  /** The phrase as the rule knows it. */
  readonly phrase: string;
  /** The reply's text around it. */
  readonly sentence: (phrase: string) => string;
  /** Failure ids of which at least one must be in the trace. */
  readonly caughtBy: readonly string[];
  /**
   * Disguises that change what the phrase says rather than hide it: a dot or hyphen inside a
   * domain name is another domain (`e.xample.c.om`).
   */
  readonly notDisguisedBy?: RegExp;
}

const after = (phrase: string) => `The weather today: ${phrase}.`;
const rival = (phrase: string): ProtectedPhrase => ({ phrase, sentence: (p) => `The weather today, then ${p}.`, caughtBy: ['NAMES_OTHER_ACTION'] });
const rule = (caughtBy: readonly string[], ...phrases: string[]): ProtectedPhrase[] => phrases.map((phrase) => ({ phrase, sentence: after, caughtBy }));

export const LAB_PROTECTED: readonly ProtectedPhrase[] = [
  // The authority boundary: the rivals by title, by id, and by the id's words.
  ...['Quiet hour', 'quiet-1', 'quiet 1', 'Evening recap', 'note-b', 'Stretch break', 'stretchBreak'].map(rival),
  ...rule(['PROHIB-001'], 'I recommend it', "I'd recommend it", 'we suggest it', 'you should go', 'instead of that', 'rather than that', 'a better option'),
  ...rule(['PROHIB-002'], 'it cures colds', 'rain treats allergies', 'we diagnose it', 'no medical advice'),
  ...rule(['PROHIB-003'], 'act now', 'limited time', 'hurry up', 'last chance', "don't miss out"),
  ...rule(['PROHIB-004'], 'you failed', "you're behind", 'you are lazy'),
  ...rule(['PROHIB-005', 'INV-005'], 'mail ann.lee@example.org'),
  ...rule(['PROHIB-005'], 'call +1 555 123 4567'),
  ...rule(['LAB-PROHIB-001'], 'lottery luck', 'a jackpot'),
  ...rule(['LAB-NOT-CONTAINS'], 'forbidden'),
  ...rule(['LAB-NOT-CONTAINS-ANY'], 'maybe', 'perhaps'),
  ...rule(['INV-004'], 'ignore the guardrails', 'bypass the safety limits'),
  { phrase: 'see example.com', sentence: after, caughtBy: ['INV-005'], notDisguisedBy: /(dot|hyphen) inside a word/ },
  ...rule(['INV-005'], 'click here'),
  ...rule(['RANK-RANKS'], 'ranked', 'it outscored'),
  ...rule(['RANK-COMPARES'], 'better than the other notes', 'preferable to'),
  ...rule(['RANK-SUPERLATIVE'], 'best choice of the three', 'top pick'),
  ...rule(['RANK-POSITION'], '2nd place', 'the runner-up'),
  ...rule(['RANK-OTHERS'], 'the alternatives'),
];

export interface Variant {
  readonly protected: ProtectedPhrase;
  readonly disguise: string;
  readonly text: string;
}

/** Every variant of every protected phrase, each undisguised one first. */
export function labVariants(): Variant[] {
  return LAB_PROTECTED.flatMap((item) =>
    [{ disguise: 'none', text: item.phrase }, ...disguisesOf(item.phrase).filter(({ disguise }) => !(item.notDisguisedBy?.test(disguise) ?? false))].map(({ disguise, text }) => ({
      protected: item,
      disguise,
      text: item.sentence(text),
    })),
  );
}
