/**
 * "Did you mean" help texts. Names and keywords are quoted with backticks, string values
 * with double quotes, so the help reads like what the author should type.
 */
import { closestMatch } from '@adec/diagnostics';
import { EXPRESSION_KEYWORDS } from '@adec/grammar';

/**
 * The closest candidate by edit distance; failing that, the one candidate the word is a
 * prefix of (`action` → `action_metadata`), which edit distance alone never finds.
 */
export function suggestName(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const close = closestMatch(word, list);
  if (close !== undefined || word.length < 3) return close;
  const extensions = list.filter((c) => c !== word && c.startsWith(`${word}_`));
  return extensions.length === 1 ? extensions[0] : undefined;
}

/** `{ help: "did you mean `x`?" }` when a candidate is close, else nothing. */
export function didYouMeanName(word: string, candidates: Iterable<string>): { help?: string } {
  const match = suggestName(word, candidates);
  return match === undefined ? {} : { help: `did you mean \`${match}\`?` };
}

/**
 * For a name in an expression: the closest of `candidates`, else the closest of `keywords`,
 * since a mistyped `not`, `false` or `if` reads as a name (`faxse`, `ont x`, `inot (…)`).
 */
export function didYouMeanNameOrKeyword(word: string, candidates: Iterable<string>, keywords: readonly string[] = EXPRESSION_KEYWORDS): { help?: string } {
  const name = didYouMeanName(word, candidates);
  return name.help !== undefined ? name : didYouMeanKeyword(word, keywords);
}

/** The keywords a `(` may follow, which a mistyped one turns into a call: `inot (…)`. */
export const KEYWORDS_BEFORE_PARENTHESIS: readonly string[] = EXPRESSION_KEYWORDS.filter((k) => ['not', 'if'].includes(k.toLowerCase()));

/** `{ help: "did you mean `false`?" }` when one of `keywords` is close to `word`. */
export function didYouMeanKeyword(word: string, keywords: readonly string[] = EXPRESSION_KEYWORDS): { help?: string } {
  const match = closestMatch(word, keywords);
  return match === undefined ? {} : { help: `did you mean \`${match}\`?` };
}

/** `{ help: 'did you mean "child"?' }` for a string value close to an enum member. */
export function didYouMeanValue(word: string, candidates: Iterable<string>): { help?: string } {
  const match = closestMatch(word, candidates);
  return match === undefined ? {} : { help: `did you mean "${match}"?` };
}
