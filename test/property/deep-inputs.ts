/**
 * Worlds at and past the compiler's limits, shared by compiler-robustness.test.ts and the
 * fuzzing in never-throws.test.ts: expressions, types and test values nested to a given depth
 * (grammar/README.md, "Nesting limit"), and chains of binary operators of a given length.
 *
 * Depths are counted as the nesting limit counts them: every bracket, `if`, `not`, unary `-`
 * and `.field`, including the braces of the declarations around (a rule's condition starts
 * at level 2: `action … {` and `rule … {`).
 */
import type { WorldSources } from '@adec/compiler';

/** The levels around a rule's condition: `action review {` and `rule r {`. */
export const RULE_LEVELS = 2;

const HEADER = 'world { org "acme" domain "limits" version "1.0.0" }';

/** The attributes conditions may read, with their types. */
const ATTRIBUTES = { amount: 'int', flag: 'bool', maybe: 'int?', label: 'string' } as const;

/** A world of one action whose one rule has condition `when`; `extra` adds declarations. */
export function ruleWorld(when: string, options: { readonly context?: string; readonly extra?: string; readonly reason?: string } = {}): WorldSources {
  // The attributes the world reads, and no other (an unused one would be a warning).
  const uses = `${when} ${options.reason ?? ''} ${options.extra ?? ''}`;
  const attributes = Object.entries(ATTRIBUTES).filter(([name]) => new RegExp(`\\b${name}\\b`).test(uses));
  const context = options.context ?? attributes.map(([name, type]) => `  supplied ${name}: ${type}`).join('\n');
  const text = [
    HEADER,
    `context {\n${context}\n}`,
    `action review {\n  rule r {\n    outcome  YELLOW\n    severity t2\n    when     ${when}\n    reason   ${options.reason ?? '"r"'}\n  }\n}`,
    ...(options.extra === undefined ? [] : [options.extra]),
  ].join('\n\n');
  return { root: 'limits', files: [{ path: 'limits/world.adec', text: `${text}\n` }] };
}

/** The ways to nest, each building a condition (or world) `depth` levels deep below the rule. */
export const NESTING_KINDS = ['parentheses', 'not', 'minus', 'calls', 'lists', 'if', 'else if', 'fields', 'interpolation', 'test values', 'list types', 'record types'] as const;
export type NestingKind = (typeof NESTING_KINDS)[number];

/**
 * A world nested `levels` deep in the way `kind` nests, counting the declarations around as
 * the limit does; `crossing` is the text that starts the level past `limit`, if it is reached
 * (the diagnostic's position: its `occurrence`-th appearance, counted from 0).
 */
export function nestedWorld(kind: NestingKind, depth: number): { readonly sources: WorldSources; readonly crossing: string; readonly occurrence: number } {
  const levels = Math.max(depth, RULE_LEVELS + 1); // at least one level below the rule
  const inRule = levels - RULE_LEVELS; // brackets etc. below `rule r {`
  switch (kind) {
    case 'parentheses':
      return { sources: ruleWorld(`${'('.repeat(inRule)}amount > 1${')'.repeat(inRule)}`), crossing: '(', occurrence: 100 - RULE_LEVELS };
    case 'not':
      return { sources: ruleWorld(`${'not '.repeat(inRule)}flag`), crossing: 'not', occurrence: 100 - RULE_LEVELS };
    case 'minus':
      return { sources: ruleWorld(`${'-'.repeat(inRule)}amount > 1`), crossing: '-', occurrence: 100 - RULE_LEVELS };
    case 'calls':
      return { sources: ruleWorld(`${'abs('.repeat(inRule)}amount${')'.repeat(inRule)} > 1`), crossing: 'abs(', occurrence: 100 - RULE_LEVELS };
    case 'lists': {
      const list = `${'['.repeat(inRule)}amount${']'.repeat(inRule)}`;
      return { sources: ruleWorld(`${list} != []`), crossing: '[', occurrence: 100 - RULE_LEVELS };
    }
    case 'if':
      return { sources: ruleWorld(`${'if flag then '.repeat(inRule)}amount > 1${' else false'.repeat(inRule)}`), crossing: 'if', occurrence: 100 - RULE_LEVELS };
    case 'else if':
      return {
        sources: ruleWorld(`${Array.from({ length: inRule }, (_, i) => `if amount == ${i} then flag else `).join('')}false`),
        crossing: 'if',
        occurrence: 100 - RULE_LEVELS,
      };
    case 'fields': {
      // A record type as deep as the path can go (the type's own braces count from `context {`).
      const typeDepth = Math.min(inRule, 100 - 1);
      const type = `${'{ x: '.repeat(typeDepth)}int${' }'.repeat(typeDepth)}`;
      return {
        sources: ruleWorld(`deep${'.x'.repeat(inRule)} > 1`, { context: `  supplied deep: ${type}` }),
        crossing: '.x',
        occurrence: 100 - RULE_LEVELS,
      };
    }
    case 'interpolation':
      // An interpolation counts its own levels, from 0.
      return { sources: ruleWorld('amount > 1', { reason: `"amount {${'('.repeat(levels)}amount + 1${')'.repeat(levels)}}"` }), crossing: '(', occurrence: 100 };
    case 'test values': {
      // `test { context {` are two levels; the attribute's `list<…>` one level under `context {`.
      const valueDepth = levels - 2;
      const typeDepth = Math.min(valueDepth, 100 - 1);
      const type = `${'list<'.repeat(typeDepth)}int${'>'.repeat(typeDepth)}`;
      const value = `${'['.repeat(valueDepth)}1${']'.repeat(valueDepth)}`;
      const test = `test "deep" {\n  action review\n  context { amount: 2, flag: true, items: ${value} }\n  expect YELLOW by r\n}`;
      return {
        sources: ruleWorld('amount > 1 and flag and len(items) > 0', { context: `  supplied amount: int\n  supplied flag: bool\n  supplied items: ${type}`, extra: test }),
        crossing: '[',
        occurrence: 100 - 2,
      };
    }
    case 'list types': {
      const depth = levels - 1; // under `context {`
      return {
        sources: ruleWorld('len(items) > 1', { context: `  supplied items: ${'list<'.repeat(depth)}int${'>'.repeat(depth)}` }),
        crossing: 'list<',
        occurrence: 100 - 1,
      };
    }
    case 'record types': {
      const depth = levels - 1;
      return {
        sources: ruleWorld('deep IS NOT NULL', { context: `  supplied deep: ${'{ x: '.repeat(depth)}int${' }'.repeat(depth)}?` }),
        crossing: '{ x:',
        occurrence: 100 - 1,
      };
    }
  }
}

/** Offset of the `occurrence`-th (from 0) appearance of `needle` in `text`. */
export function nthOffset(text: string, needle: string, occurrence: number): number {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) return -1;
  }
  return at;
}

/** Operator families for chains, each with its operand and how the whole reads as a condition. */
export const CHAIN_KINDS = ['or', 'and', 'plus', 'mixed arithmetic', 'coalesce', 'concatenation', 'and of or', 'comparisons of sums'] as const;
export type ChainKind = (typeof CHAIN_KINDS)[number];

/**
 * A condition over `amount: int`, `maybe: int?` and `label: string` that chains `length`
 * operands; `value` is what it evaluates to for amount = 3, maybe = null, label = "x" (to check
 * the generated code), computed here by the same left-to-right rules.
 */
export function chainCondition(kind: ChainKind, length: number): { readonly text: string; readonly value: boolean } {
  const n = Math.max(2, length);
  const indices = Array.from({ length: n }, (_, i) => i);
  switch (kind) {
    case 'or':
      // amount == 0 or amount == 1 or …: true when 3 < n.
      return { text: indices.map((i) => `amount == ${i}`).join(' or '), value: 3 < n };
    case 'and':
      return { text: indices.map((i) => `amount != ${i + 10}`).join(' and '), value: true };
    case 'plus': {
      // amount + 1 + 2 + … > total - 1
      const sum = indices.slice(1).reduce((s, i) => s + (i % 7), 3);
      return { text: `amount${indices.slice(1).map((i) => ` + ${i % 7}`).join('')} > ${sum - 1}`, value: true };
    }
    case 'mixed arithmetic': {
      // `*` and `%` bind tighter than `+` and `-`: every term stays small, the sum below 10n.
      const ops = [' * 2', ' - 1', ' + amount', ' % 5', ' - 3'];
      const text = `amount${indices.slice(1).map((i) => ops[i % ops.length]!).join('')}`;
      return { text: `${text} < ${10 * n + 10}`, value: true };
    }
    case 'coalesce':
      return { text: `${'maybe ?? '.repeat(n - 1)}amount == 3`, value: true };
    case 'concatenation':
      return { text: `label${' + "y"'.repeat(n - 1)} == "x${'y'.repeat(n - 1)}"`, value: true };
    case 'and of or':
      return { text: indices.map((i) => `(amount == ${i} or flag)`).join(' and '), value: false };
    case 'comparisons of sums':
      return { text: indices.map((i) => `amount + ${i} > ${i + 5}`).join(' or '), value: false };
  }
}

/** The runtime context the chain conditions are evaluated with (see `chainCondition`). */
export const CHAIN_CONTEXT = { amount: 3, flag: false, maybe: null, label: 'x' } as const;
