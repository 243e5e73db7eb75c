/**
 * Ranking and comparing the options, recognised by what the words do rather than by a list of
 * phrases: a skill explains the selected action and may praise it, but the moment its text
 * sets that action against the others (a comparative or superlative about the options, a
 * place in an order, a reference to the options not chosen, a score) it re-decides what stage 4
 * locked. Each kind below is matched in the reader's form of the text (read-text.ts), so a
 * disguised word is the word. docs/skill-text.md lists the phrasings covered and those
 * knowingly out of scope.
 */

/** Nouns for an option as a thing chosen: "the best choice", "my top pick". */
const CHOICE = String.raw`(?:options?|choices?|candidates?|alternatives?|picks?|selections?|contenders?|possibilit(?:y|ies)|bets?)`;
/** Nouns for the options themselves, as the other candidates are spoken of. */
const OPTION = String.raw`(?:${CHOICE}|actions?|sessions?|activit(?:y|ies)|workouts?|notes?|ones?)`;
/** Words that point at the options other than the selected one. */
const OTHERS = String.raw`(?:(?:the|any|all|every|each) (?:other|others|rest|remaining|remainder)\b|others\b|the rest\b|(?:other|remaining) ${OPTION}\b|(?:the )?alternatives?\b|either (?:one|of them)\b|anything else\b|everything else\b|(?:all|both|each) of (?:them|these|those|the ${OPTION})\b|them all\b)`;
/** How many options there were: "of the three", "out of 4". */
const COUNT = String.raw`(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|both)`;
const COMPARATIVE = String.raw`(?:better|worse|\w{2,}er|more \w+|less \w+|superior|inferior|preferable|preferred)`;
const SUPERLATIVE = String.raw`(?:best|worst|top|highest|lowest|strongest|weakest|greatest|smartest|wisest|safest|finest|optimal|number one|no\. ?1|#1|most \w+|least \w+)`;
const ORDINAL = String.raw`(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|last|#\d|no\. ?\d)`;

export interface RankingKind {
  readonly id: string;
  readonly meaning: string;
  readonly pattern: RegExp;
}

export const RANKING_LANGUAGE: readonly RankingKind[] = [
  {
    id: 'RANK-COMPARES',
    meaning: 'compares the action with the other options',
    pattern: new RegExp(
      String.raw`\b${COMPARATIVE} (?:than|to|over|compared to|compared with) ${OTHERS}|\b(?:superior|inferior|preferable|preferred) (?:to|over)\b|\b(?:compared (?:to|with)|in comparison (?:to|with)|as opposed to|versus|vs\.?) ${OTHERS}|\bcomparison\b`,
      'i',
    ),
  },
  {
    id: 'RANK-SUPERLATIVE',
    meaning: 'calls the action the best (or worst) of the options',
    pattern: new RegExp(
      String.raw`\b(?:${SUPERLATIVE}|better|${ORDINAL}) ${CHOICE}\b|\b${SUPERLATIVE} (?:of|among|out of|from) (?:(?:all )?(?:the |these |those |your )|all )?(?:${COUNT}\b|${OPTION}\b|${OTHERS}|them\b)|\b(?:top|best|highest|lowest|first)[- ](?:ranked|rated|scoring|scored|placed)\b`,
      'i',
    ),
  },
  {
    id: 'RANK-POSITION',
    meaning: 'gives the options places in an order',
    pattern: new RegExp(
      String.raw`\b${ORDINAL} (?:place|position|spot|rank|runner|best)\b|\bplaced (?:${ORDINAL}|\d)|\brunners?[- ]?ups?\b|\b(?:second|next|third)[- ]best\b|\bnext in line\b|\b(?:ahead of|behind|above|below) ${OTHERS}`,
      'i',
    ),
  },
  {
    id: 'RANK-RANKS',
    meaning: 'ranks, scores or beats the options',
    pattern: new RegExp(
      String.raw`\brank(?:s|ed|ing|ings)?\b|\bout(?:scor|rank|perform|class|shin|pac)\w*|\b(?:beat|beats|beating|trumps?|edged? out|wins? out over) ${OTHERS}|\bleaderboard\b|\bshort-?list(?:ed)?\b|\btie-?break\w*|\bscor(?:e|es|ed|ing) (?:higher|lower|better|worse|best|highest|lowest|well|above|below|over|\d)|\b(?:its|their|higher|lower|top|best|highest|lowest|total|overall|final|ranking|selection) scores?\b|\bscores? of \d|\b\d+(?:\.\d+)? ?(?:points?|pts)\b|\b(?:rated|ratings?)\b|\b\d+(?:\.\d+)? ?(?:\/ ?(?:5|10|100)|out of \d+)\b|\bprobabilit(?:y|ies)\b|\blikelihood\b`,
      'i',
    ),
  },
  {
    id: 'RANK-OTHERS',
    meaning: 'refers to the options that were not chosen',
    pattern: new RegExp(
      String.raw`\b(?:other|remaining) ${OPTION}\b|\banother ${CHOICE}\b|\balternatives?\b|\binstead\b|\b(?:the|any|all) others\b|\bthe rest of (?:the|your|them) ${OPTION}\b|\b(?:over|among|from) (?:the |all )?(?:others|alternatives)\b|\b(?:of|among|out of) the ${COUNT}\b|\bamong (?:them|these|those|(?:the|your) ${OPTION})\b|\b(?:would|should|could) have (?:chosen|picked|selected|gone with)\b`,
      'i',
    ),
  },
];
