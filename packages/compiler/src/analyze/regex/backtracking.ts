/**
 * Flags regular expressions prone to catastrophic backtracking (ReDoS). Prohibition
 * patterns and `MATCHES` run on LLM output of arbitrary length inside a predicate timeout,
 * so a pattern whose failing match takes exponential time turns into a timeout, i.e. a
 * fallback or the error floor, on every long answer.
 *
 * Two shapes are reported, both under a repeat that iterates at least `MIN_OUTER_REPEATS`
 * times (a `?` or `{2}` cannot blow up exponentially):
 *
 * 1. Nested quantifier, `(a+)+`, `(\w+\s?)*`, `(.*a)+`: the loop body contains an inner
 *    repeat Y (max ≥ 2), and the text between the start of an iteration and Y (prefix P)
 *    and between Y and the end of the iteration (suffix S) can both be made of characters
 *    Y itself matches. Then a run of such characters can be split between Y and the next
 *    iteration in exponentially many ways. `^[a-z]+(-[a-z]+)*$` is safe: every iteration
 *    starts with `-`, which `[a-z]+` cannot match, so the split is forced.
 * 2. Overlapping alternatives, `(a|a)*`, `(a|ab)*`, `(\d|\d\d)+`: the loop body is a choice
 *    of which two branches can start with the same non-empty text (prefix-overlap.ts).
 *
 * Not reported (quadratic at worst, or too rare to be worth a false alarm): adjacent
 * overlapping repeats `\d+\d+`, `.*.*`; overlaps hidden behind a non-optional prefix inside
 * the body `(x(a|ab))*`.
 */
import { EMPTY_SET, intersects, union, type CharSet } from './char-set.js';
import { parseRegex } from './parse-regex.js';
import { prefixOverlap } from './prefix-overlap.js';
import type { RegexNode, RepeatNode } from './regex-ast.js';

/** A loop must be able to iterate this often to be reported. */
const MIN_OUTER_REPEATS = 3;

/**
 * A reason `source` (a JavaScript pattern, compiled with `flags`) is prone to catastrophic
 * backtracking, quoting the offending sub-pattern; `undefined` when none is found or the
 * pattern cannot be parsed.
 */
export function backtrackingRisk(source: string, flags = ''): string | undefined {
  const root = parseRegex(source, flags);
  if (root === undefined) return undefined;
  const text = (node: RegexNode): string => source.slice(node.start, node.end);
  for (const loop of repeatsInSourceOrder(root)) {
    if (loop.max < MIN_OUTER_REPEATS) continue;
    const inner = ambiguousInnerRepeat(loop);
    if (inner !== undefined) {
      return `nested quantifier: \`${text(loop)}\` repeats a group that itself repeats (\`${text(inner)}\`), so the same text can be split between iterations in exponentially many ways`;
    }
    const pair = overlappingBranches(loop.body);
    if (pair !== undefined) {
      return `overlapping alternatives: \`${text(loop)}\` repeats a choice between \`${text(pair[0])}\` and \`${text(pair[1])}\`, which can match the same text`;
    }
  }
  return undefined;
}

function repeatsInSourceOrder(node: RegexNode): RepeatNode[] {
  const found: RepeatNode[] = [];
  const walk = (current: RegexNode): void => {
    if (current.kind === 'repeat') found.push(current);
    for (const child of children(current)) walk(child);
  };
  walk(node);
  return found;
}

function children(node: RegexNode): readonly RegexNode[] {
  switch (node.kind) {
    case 'sequence':
      return node.items;
    case 'alternation':
      return node.branches;
    case 'group':
    case 'repeat':
      return [node.body];
    default:
      return [];
  }
}

/** An inner repeat of `loop` whose iterations can trade text with the outer loop's. */
function ambiguousInnerRepeat(loop: RepeatNode): RepeatNode | undefined {
  for (const candidate of innerRepeats(loop.body, [], [])) {
    const chars = consumableChars(candidate.repeat.body);
    if (chars.length === 0) continue;
    const withinChars = (node: RegexNode): boolean => canMatchWithin(node, chars);
    if (candidate.prefix.every(withinChars) && candidate.suffix.every(withinChars)) return candidate.repeat;
  }
  return undefined;
}

interface InnerRepeat {
  readonly repeat: RepeatNode;
  /** What precedes the repeat inside one iteration of the outer loop. */
  readonly prefix: readonly RegexNode[];
  /** What follows it inside the iteration. */
  readonly suffix: readonly RegexNode[];
}

/**
 * Repeats (max ≥ 2) reachable from `node` without crossing another such repeat, with the
 * nodes before and after them on the way. `?` and `{0,1}` are looked through.
 */
function innerRepeats(node: RegexNode, prefix: readonly RegexNode[], suffix: readonly RegexNode[]): InnerRepeat[] {
  switch (node.kind) {
    case 'repeat':
      if (node.max >= 2) return [{ repeat: node, prefix, suffix }];
      return innerRepeats(node.body, prefix, suffix);
    case 'group':
      return innerRepeats(node.body, prefix, suffix);
    case 'alternation':
      return node.branches.flatMap((branch) => innerRepeats(branch, prefix, suffix));
    case 'sequence':
      return node.items.flatMap((item, index) =>
        innerRepeats(item, [...prefix, ...node.items.slice(0, index)], [...node.items.slice(index + 1), ...suffix]),
      );
    default:
      return [];
  }
}

/** Every character `node` may consume (lookarounds consume nothing). */
function consumableChars(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'chars':
      return node.set;
    case 'group':
      return node.lookaround ? EMPTY_SET : consumableChars(node.body);
    case 'sequence':
      return union(...node.items.map(consumableChars));
    case 'alternation':
      return union(...node.branches.map(consumableChars));
    case 'repeat':
      return node.max === 0 ? EMPTY_SET : consumableChars(node.body);
    default:
      return EMPTY_SET;
  }
}

/** Can `node` match some text (possibly empty) made only of characters in `chars`? */
function canMatchWithin(node: RegexNode, chars: CharSet): boolean {
  switch (node.kind) {
    case 'chars':
      return intersects(node.set, chars);
    case 'sequence':
      return node.items.every((item) => canMatchWithin(item, chars));
    case 'alternation':
      return node.branches.some((branch) => canMatchWithin(branch, chars));
    case 'group':
      return node.lookaround || canMatchWithin(node.body, chars);
    case 'repeat':
      return node.min === 0 || canMatchWithin(node.body, chars);
    case 'assertion':
    case 'backreference':
      return true;
  }
}

/** The first pair of branches of a repeated choice that can match the same text. */
function overlappingBranches(body: RegexNode): [RegexNode, RegexNode] | undefined {
  const choice = unwrapGroups(body);
  if (choice.kind !== 'alternation') return undefined;
  const { branches } = choice;
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      if (prefixOverlap(branches[i]!, branches[j]!)) return [branches[i]!, branches[j]!];
    }
  }
  return undefined;
}

function unwrapGroups(node: RegexNode): RegexNode {
  if (node.kind === 'group' && !node.lookaround) return unwrapGroups(node.body);
  return node;
}
