/**
 * The tokens of the world language.
 *
 * Words: most keywords are *soft*. A soft keyword (`version`, `type`, `state`, `action`,
 * `when`, `weight`, …) is also a member of the `Name` category, so it is accepted wherever the
 * grammar expects a name: `payload.type`, a context attribute called `state`, a work_frame
 * field `mode`, an objective called `weight`. The grammar never puts a free name where one of
 * these keywords starts a construct without a second token to tell them apart.
 *
 * Only the words that build expressions are *hard* keywords (`if then else and or not in
 * true false null` and the SEC operators `IS NULL EQUALS CONTAINS CONTAINS_ANY MATCHES
 * LENGTH`): a bare name in an expression cannot be one of them, because `a not b` or
 * `if x` would be ambiguous. After a dot every word is a property name (`payload.in`).
 *
 * Each keyword is matched as a whole word (`longer_alt: Identifier`): `whenever`,
 * `action_id`, `rule_count` are identifiers. Keywords are case-sensitive; the expression
 * words exist in both spellings the SEC documents and the examples use (`and`/`AND`,
 * `if`/`IF`, `not`/`NOT`, `null`/`NULL`).
 */
import type { TokenType } from 'chevrotain';
import { createToken, Lexer } from './chevrotain.js';

// ── Categories ──────────────────────────────────────────────────────────────

/** Anything accepted where the grammar expects a name: identifiers and soft keywords. */
export const Name = createToken({ name: 'Name', pattern: Lexer.NA, label: 'a name' });

/** Anything accepted after `.`: every word, hard keywords included. */
export const PropertyName = createToken({ name: 'PropertyName', pattern: Lexer.NA, label: 'a field name' });

/** "…" and '…' strings (and an unterminated one, reported by the lexer and parsed on). */
export const StringLiteral = createToken({ name: 'StringLiteral', pattern: Lexer.NA, label: 'a string' });

// ── Trivia ──────────────────────────────────────────────────────────────────

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\v\u00a0\ufeff]+/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\r\n]*/, group: Lexer.SKIPPED });
export const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED });
/** A `/*` with no `*\/`: runs to the end of the file; the lexer reports ADEC1006. */
export const UnterminatedBlockComment = createToken({
  name: 'UnterminatedBlockComment',
  pattern: /\/\*[\s\S]*/,
  group: 'errors',
});

// ── Literals ────────────────────────────────────────────────────────────────

/*
 * In a string a backslash is literal, so patterns read as in the SEC documents
 * ("\d+(\.\d+)?"); the one escape is the string's own quote (\" inside "…", \' inside '…').
 * A backslash directly before the closing quote therefore always escapes it. Strings end at
 * the end of the line.
 */
export const DoubleQuotedString = createToken({
  name: 'DoubleQuotedString',
  pattern: /"(?:[^"\\\r\n]|\\"|\\(?!"))*"/,
  categories: [StringLiteral],
  label: 'a string',
});
export const SingleQuotedString = createToken({
  name: 'SingleQuotedString',
  pattern: /'(?:[^'\\\r\n]|\\'|\\(?!'))*'/,
  categories: [StringLiteral],
  label: 'a string',
});
/** A string whose closing quote is missing: kept as a string so parsing goes on (ADEC1002). */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /"(?:[^"\\\r\n]|\\"|\\(?!"))*|'(?:[^'\\\r\n]|\\'|\\(?!'))*/,
  categories: [StringLiteral],
  label: 'a string',
});

/**
 * A string in typographic quotes, as pasted from a document (“terminated”, ‘x’; closed by a
 * curly or a straight quote): read as a string so the parse goes on, and reported once by the
 * lexer (ADEC1001) rather than as two stray characters around a name.
 */
export const CurlyQuotedString = createToken({
  name: 'CurlyQuotedString',
  pattern: /[\u201c\u201d][^\u201c\u201d"\r\n]*[\u201c\u201d"]|[\u2018\u2019][^\u2018\u2019'\r\n]*[\u2018\u2019']/,
  categories: [StringLiteral],
  label: 'a string',
});

/**
 * Never lexed: nesting.ts puts one in place of a part of a file nested deeper than the limit
 * (reported there, ADEC1010). It counts as a string, which the grammar accepts wherever an
 * expression, a test value or a type may stand, so the parser reads on without an error;
 * cst-to-ast.ts turns it into a placeholder the checker ignores.
 */
export const TooDeep = createToken({ name: 'TooDeep', pattern: Lexer.NA, categories: [StringLiteral], label: 'a nested part' });

/**
 * `500ms`, `18h`, `1.5s`: a number with a unit directly attached. Any unit is lexed here so
 * that `5y` is one token reported as an invalid duration (ADEC1005) rather than a number
 * followed by a name. `1e5` is an exponent, not a duration.
 */
export const Duration = createToken({
  name: 'Duration',
  pattern: /\d+(?:\.\d+)?(?![eE][+-]?\d)[A-Za-z_][A-Za-z0-9_]*/,
  label: 'a duration',
});
export const NumberToken = createToken({
  name: 'Number',
  pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  label: 'a number',
});

/** The outcome and status `GREEN-SKIP`: one token, so it never reads as `GREEN - SKIP`. */
export const GreenSkip = createToken({ name: 'GreenSkip', pattern: /GREEN-SKIP(?![A-Za-z0-9_])/, label: 'GREEN-SKIP' });

export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  categories: [Name, PropertyName],
  label: 'a name',
});

// ── Keywords ────────────────────────────────────────────────────────────────

const keywordTokens: TokenType[] = [];
const spellingsOfKeyword = new Map<TokenType, readonly string[]>();
const hardKeywordSpellings: string[] = [];

function keyword(name: string, spellings: readonly string[], hard = false): TokenType {
  const token = createToken({
    name,
    pattern: new RegExp(spellings.join('|')),
    longer_alt: Identifier,
    categories: hard ? [PropertyName] : [Name, PropertyName],
    label: spellings[0],
  });
  keywordTokens.push(token);
  spellingsOfKeyword.set(token, spellings);
  if (hard) hardKeywordSpellings.push(...spellings);
  return token;
}

// Declarations
export const World = keyword('World', ['world']);
export const Context = keyword('Context', ['context']);
export const Action = keyword('Action', ['action']);
export const Skill = keyword('Skill', ['skill']);
export const Scenario = keyword('Scenario', ['scenario']);
export const Test = keyword('Test', ['test']);

// Context
export const Supplied = keyword('Supplied', ['supplied']);
export const System = keyword('System', ['system']);
export const Computed = keyword('Computed', ['computed']);

// Actions and rules
export const Aggregate = keyword('Aggregate', ['aggregate']);
export const Rule = keyword('Rule', ['rule']);
export const On = keyword('On', ['on']);
export const Outcome = keyword('Outcome', ['outcome']);
export const Severity = keyword('Severity', ['severity']);
export const AppliesWhen = keyword('AppliesWhen', ['applies_when']);
export const When = keyword('When', ['when']);
export const Reason = keyword('Reason', ['reason']);
export const Suppresses = keyword('Suppresses', ['suppresses']);
export const Timeout = keyword('Timeout', ['timeout']);
export const Weight = keyword('Weight', ['weight']);

// Skills
export const Version = keyword('Version', ['version']);
export const Type = keyword('Type', ['type']);
export const Description = keyword('Description', ['description']);
export const Prompt = keyword('Prompt', ['prompt']);
export const HardLimit = keyword('HardLimit', ['hard_limit']);
export const Fallback = keyword('Fallback', ['fallback']);
export const ActionMetadata = keyword('ActionMetadata', ['action_metadata']);
export const UserState = keyword('UserState', ['user_state']);
export const Output = keyword('Output', ['output']);
export const Invariant = keyword('Invariant', ['invariant']);
export const Prohibit = keyword('Prohibit', ['prohibit']);
export const Template = keyword('Template', ['template']);

// Scenarios
export const Signals = keyword('Signals', ['signals']);
export const State = keyword('State', ['state']);
export const ActionType = keyword('ActionType', ['action_type']);
export const Guardrail = keyword('Guardrail', ['guardrail']);
export const Block = keyword('Block', ['block']);
export const Force = keyword('Force', ['force']);
export const Cap = keyword('Cap', ['cap']);
export const Objective = keyword('Objective', ['objective']);
export const ExecutionRisk = keyword('ExecutionRisk', ['execution_risk']);
export const TieBreak = keyword('TieBreak', ['tie_break']);
export const Asc = keyword('Asc', ['asc']);
export const Desc = keyword('Desc', ['desc']);
export const DefaultMode = keyword('DefaultMode', ['default_mode']);

// Tests
export const Actions = keyword('Actions', ['actions']);
export const Expect = keyword('Expect', ['expect']);
export const By = keyword('By', ['by']);
export const Selected = keyword('Selected', ['selected']);
export const NoEligibleActions = keyword('NoEligibleActions', ['NO_ELIGIBLE_ACTIONS']);
export const WorkFrame = keyword('WorkFrame', ['work_frame']);
export const MissingEvidence = keyword('MissingEvidence', ['missing_evidence']);
export const ModelReply = keyword('ModelReply', ['model_reply']);
export const Validation = keyword('Validation', ['validation']);
export const Passed = keyword('Passed', ['passed']);
export const Failed = keyword('Failed', ['failed']);

// Types
export const List = keyword('List', ['list']);

// Expressions (hard)
export const If = keyword('If', ['if', 'IF'], true);
export const Then = keyword('Then', ['then', 'THEN'], true);
export const Else = keyword('Else', ['else', 'ELSE'], true);
export const Or = keyword('Or', ['or', 'OR'], true);
export const And = keyword('And', ['and', 'AND'], true);
export const Not = keyword('Not', ['not', 'NOT'], true);
export const In = keyword('In', ['in'], true);
export const True = keyword('True', ['true'], true);
export const False = keyword('False', ['false'], true);
export const Null = keyword('Null', ['null', 'NULL'], true);
export const Is = keyword('Is', ['IS'], true);
export const EqualsWord = keyword('EqualsWord', ['EQUALS'], true);
export const Contains = keyword('Contains', ['CONTAINS'], true);
export const ContainsAny = keyword('ContainsAny', ['CONTAINS_ANY'], true);
export const Matches = keyword('Matches', ['MATCHES'], true);
export const Length = keyword('Length', ['LENGTH'], true);

// ── Punctuation and operators ───────────────────────────────────────────────

/**
 * Comparison operators as a document typesets them, pasted into a world (`amount ≥ 100`): each
 * is read as the operator it stands for, so the condition parses, and the lexer reports it once
 * (ADEC1001) with the operator to write instead.
 */
export const TYPESET_OPERATORS: ReadonlyMap<string, string> = new Map([
  ['\u2265', '>='],
  ['\u2264', '<='],
  ['\u2260', '!='],
]);

function punctuation(name: string, text: string): TokenType {
  const spellings = [text, ...[...TYPESET_OPERATORS].filter(([, operator]) => operator === text).map(([typeset]) => typeset)];
  const pattern = new RegExp(spellings.map((spelling) => spelling.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));
  return createToken({ name, pattern, label: text });
}

export const LCurly = punctuation('LCurly', '{');
export const RCurly = punctuation('RCurly', '}');
export const LBracket = punctuation('LBracket', '[');
export const RBracket = punctuation('RBracket', ']');
export const LParen = punctuation('LParen', '(');
export const RParen = punctuation('RParen', ')');
export const Comma = punctuation('Comma', ',');
export const Colon = punctuation('Colon', ':');
export const DotDot = punctuation('DotDot', '..');
export const Dot = punctuation('Dot', '.');
export const QuestionQuestion = punctuation('QuestionQuestion', '??');
export const Question = punctuation('Question', '?');
export const Pipe = punctuation('Pipe', '|');
export const EqualEqual = punctuation('EqualEqual', '==');
export const NotEqual = punctuation('NotEqual', '!=');
export const LessEqual = punctuation('LessEqual', '<=');
export const GreaterEqual = punctuation('GreaterEqual', '>=');
export const Less = punctuation('Less', '<');
export const Greater = punctuation('Greater', '>');
export const Assign = punctuation('Assign', '=');
export const Plus = punctuation('Plus', '+');
export const Minus = punctuation('Minus', '-');
export const Star = punctuation('Star', '*');
export const Slash = punctuation('Slash', '/');
export const Percent = punctuation('Percent', '%');

/** The keyword tokens, longest spelling first so `actions` is never read as `action` + `s`. */
const keywordsLongestFirst = [...keywordTokens].sort(
  (a, b) => longestSpelling(b) - longestSpelling(a),
);

function longestSpelling(token: TokenType): number {
  const source = (token.PATTERN as RegExp).source;
  return Math.max(...source.split('|').map((s) => s.length));
}

/**
 * Every token in matching order (the lexer takes the first pattern that matches, so longer
 * operators precede their prefixes and comments precede `/`).
 */
export const allTokens: TokenType[] = [
  WhiteSpace,
  LineComment,
  BlockComment,
  UnterminatedBlockComment,
  DoubleQuotedString,
  SingleQuotedString,
  UnterminatedString,
  CurlyQuotedString,
  Duration,
  NumberToken,
  GreenSkip,
  ...keywordsLongestFirst,
  Identifier,
  LCurly,
  RCurly,
  LBracket,
  RBracket,
  LParen,
  RParen,
  Comma,
  Colon,
  DotDot,
  Dot,
  QuestionQuestion,
  Question,
  Pipe,
  EqualEqual,
  NotEqual,
  LessEqual,
  GreaterEqual,
  Less,
  Greater,
  Assign,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Name,
  PropertyName,
  StringLiteral,
  TooDeep,
];

/** Every spelling of each keyword, for did-you-mean: `If` → `['if', 'IF']`. */
export const keywordSpellings: ReadonlyMap<TokenType, readonly string[]> = spellingsOfKeyword;

/** The spellings of the hard keywords, the words of expressions: `if`, `true`, `not`, `CONTAINS`, … */
export const EXPRESSION_KEYWORDS: readonly string[] = hardKeywordSpellings;

/** Keyword spellings, for messages: `{ World: 'world', If: 'if', … }`. */
export const keywordText: ReadonlyMap<TokenType, string> = new Map(
  keywordTokens.map((token) => [token, token.LABEL ?? token.name]),
);
