/**
 * Generators for the compiler fuzzing of never-throws.test.ts beyond token soups and
 * mutations: deep nesting (every way to nest, at, around and far past the limit, and random
 * stacks of them), long chains (every operator family, in several places, up to 10,000
 * operands), and random Unicode in real worlds (any code point, lone surrogates, a byte order
 * mark, right-to-left marks and overrides, NUL, line and paragraph separators, CRLF on every
 * line).
 */
import fc from 'fast-check';
import type { WorldSources } from '@adec/compiler';
import { CHAIN_KINDS, chainCondition, NESTING_KINDS, nestedWorld, ruleWorld } from './deep-inputs.js';

const pick = <T>(items: readonly T[]) => fc.constantFrom(...items);

/** Depths that matter: shallow, around the limit of 100, well past it, and 10,000. */
const depth = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 99 }), weight: 2 },
  { arbitrary: fc.integer({ min: 95, max: 105 }), weight: 4 },
  { arbitrary: fc.integer({ min: 106, max: 500 }), weight: 2 },
  { arbitrary: fc.constant(10_000), weight: 1 },
);

/** Ways to wrap a condition in one more level, keeping it a condition. */
const CONDITION_WRAPPERS: readonly ((inner: string) => string)[] = [
  (c) => `(${c})`,
  (c) => `not ${c}`,
  (c) => `if flag then ${c} else false`,
  (c) => `if ${c} then flag else false`,
  (c) => `(${c}) and flag`,
  (c) => `flag or (${c})`,
  (c) => `[${c}] != []`,
];

/** Ways to wrap a number in one more level, keeping it a number. */
const NUMBER_WRAPPERS: readonly ((inner: string) => string)[] = [
  (n) => `(${n})`,
  (n) => `-${n}`,
  (n) => `abs(${n})`,
  (n) => `min(${n}, 5)`,
  (n) => `(${n} + 1)`,
  (n) => `(maybe ?? ${n})`,
  (n) => `if flag then ${n} else 0`,
];

/** A condition built from random stacks of wrappers: a number nested inside a condition. */
const mixedNesting: fc.Arbitrary<WorldSources> = fc
  .record({
    numbers: fc.array(fc.nat({ max: NUMBER_WRAPPERS.length - 1 }), { maxLength: 120 }),
    conditions: fc.array(fc.nat({ max: CONDITION_WRAPPERS.length - 1 }), { maxLength: 120 }),
  })
  .map(({ numbers, conditions }) => {
    const number = numbers.reduce((inner, i) => NUMBER_WRAPPERS[i]!(inner), 'amount');
    return ruleWorld(conditions.reduce((inner, i) => CONDITION_WRAPPERS[i]!(inner), `${number} > 1`));
  });

/** Deep nesting: one way to nest at a given depth, or a random mix of them. */
export function deepNestingWorld(): fc.Arbitrary<WorldSources> {
  return fc.oneof(
    fc.record({ kind: pick(NESTING_KINDS), depth }).map(({ kind, depth: levels }) => nestedWorld(kind, levels).sources),
    mixedNesting,
  );
}

/** Chain lengths: short, long, and the 10,000 operands the compiler must handle. */
const chainLength = fc.oneof(
  { arbitrary: fc.integer({ min: 2, max: 50 }), weight: 2 },
  { arbitrary: fc.integer({ min: 51, max: 3_000 }), weight: 2 },
  { arbitrary: fc.constant(10_000), weight: 1 },
);

const PLACES = ['when', 'applies_when', 'computed', 'reason', 'state', 'guardrail', 'invariant'] as const;

/** A chain of operators drawn at random (typed so that it often checks): logic or arithmetic. */
const randomChain = fc.oneof(
  fc.array(fc.tuple(pick([' and ', ' or ', ' AND ', ' OR ']), pick(['amount == 1', 'flag', 'not flag', 'maybe IS NULL', 'label CONTAINS "a"', 'amount > 2'])), { minLength: 1, maxLength: 400 })
    .map((parts) => `amount > 0${parts.map(([op, operand]) => `${op}${operand}`).join('')}`),
  fc.array(fc.tuple(pick([' + ', ' - ', ' * ', ' / ', ' % ']), pick(['amount', '1', '2.5', '(maybe ?? 0)', 'abs(amount)'])), { minLength: 1, maxLength: 400 })
    .map((parts) => `amount${parts.map(([op, operand]) => `${op}${operand}`).join('')} > 3`),
);

/** Long chains of every operator family, in the places an expression goes. */
export function longChainWorld(): fc.Arbitrary<WorldSources> {
  const chain = fc.oneof(
    { arbitrary: fc.record({ kind: pick(CHAIN_KINDS), length: chainLength }).map(({ kind, length }) => chainCondition(kind, length).text), weight: 3 },
    { arbitrary: randomChain, weight: 1 },
  );
  return fc.record({ condition: chain, place: pick(PLACES) }).map(({ condition, place }) => placed(condition, place));
}

function placed(condition: string, place: (typeof PLACES)[number]): WorldSources {
  switch (place) {
    case 'when':
      return ruleWorld(condition);
    case 'applies_when':
      return ruleWorld(`amount > 1\n    applies_when ${condition}`);
    case 'computed':
      return ruleWorld('chained or amount > 1', { extra: `context {\n  computed chained: bool = ${condition}\n}` });
    case 'reason':
      // As the value interpolated in a reason: a condition is text there as well.
      return ruleWorld('amount > 1', { reason: `"chain: {${condition.replace(/"/g, "'")}}"` });
    case 'state':
    case 'guardrail':
    case 'invariant': {
      // The same chain over signals / the payload instead of the context.
      const rename = (root: string) =>
        condition.replace(/\b(amount|flag|maybe|label)\b/g, (name) => (root === '' ? `${name}_signal` : `${root}.${name}`));
      if (place === 'invariant') {
        const userState = '  user_state {\n    amount: int\n    flag: bool\n    maybe: int?\n    label: string\n  }';
        return ruleWorld('amount > 1', {
          extra: `skill s {\n  version "1.0.0"\n  type deterministic\n${userState}\n  output { text: string(..10) }\n  invariant "I-1" "a chain": ${rename('user_state')}\n  template default { text: "x" }\n}`,
        });
      }
      const signals = '  signals {\n    amount_signal: int = 0\n    flag_signal: bool = false\n    maybe_signal: int? = null\n    label_signal: string = ""\n  }';
      const body =
        place === 'state'
          ? `  state {\n    chained: bool = ${rename('')}\n  }\n  objective o weight 1.0 = if chained then 1 else 0`
          : `  guardrail "G-1" "a chain" {\n    when ${rename('')}\n    force walk\n  }\n  objective o weight 1.0 = 1`;
      return ruleWorld('amount > 1', { extra: `scenario s {\n  version "1.0.0"\n${signals}\n${body}\n  action_type walk { minutes: int }\n}` });
    }
  }
}

/** Characters that break naive text handling. */
const AWKWARD = [
  '\uFEFF', // byte order mark
  '\u200F', // right-to-left mark
  '\u202E', // right-to-left override
  '\u2066', // left-to-right isolate
  '\u0000',
  '\u2028',
  '\u2029',
  '\r\n',
  '\r',
  '\u00A0',
  '\u200B',
  'é',
  'e\u0301',
  '😀',
  '\uD800', // lone high surrogate
  '\uDFFF', // lone low surrogate
];

/** Any code point, a lone surrogate, or an awkward character. */
const unicodeCharacter: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  pick(AWKWARD),
);

const unicodeText = fc.string({ unit: unicodeCharacter, minLength: 1, maxLength: 12 });

type UnicodeEdit =
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'bom' }
  | { readonly kind: 'crlf' }
  | { readonly kind: 'inName'; readonly at: number; readonly text: string };

const unicodeEdit: fc.Arbitrary<UnicodeEdit> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat({ max: 1_000_000 }), text: unicodeText }), weight: 4 },
  { arbitrary: fc.constant({ kind: 'bom' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'crlf' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('inName' as const), at: fc.nat({ max: 1_000_000 }), text: unicodeText }), weight: 2 },
);

function applyUnicodeEdit(text: string, edit: UnicodeEdit): string {
  switch (edit.kind) {
    case 'insert': {
      const at = edit.at % (text.length + 1);
      return text.slice(0, at) + edit.text + text.slice(at);
    }
    case 'bom':
      return `\uFEFF${text}`;
    case 'crlf':
      return text.replace(/\r?\n/g, '\r\n');
    case 'inName': {
      // Into (or right after) a name: after a letter.
      const letters = [...text.matchAll(/[A-Za-z_]/g)].map((m) => m.index);
      if (letters.length === 0) return text + edit.text;
      const at = letters[edit.at % letters.length]! + 1;
      return text.slice(0, at) + edit.text + text.slice(at);
    }
  }
}

/** A world of `corpus` with random Unicode put into one of its files. */
export function unicodeWorld(corpus: readonly WorldSources[]): fc.Arbitrary<WorldSources> {
  return fc
    .record({ world: pick(corpus), file: fc.nat(), edits: fc.array(unicodeEdit, { minLength: 1, maxLength: 6 }) })
    .map(({ world, file, edits }) => {
      const index = file % world.files.length;
      return {
        root: world.root,
        files: world.files.map((f, i) => (i === index ? { path: f.path, text: edits.reduce(applyUnicodeEdit, f.text) } : f)),
      };
    });
}
