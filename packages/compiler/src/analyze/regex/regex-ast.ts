/**
 * A JavaScript regular expression (Annex B syntax, no `u` flag) as the backtracking
 * analysis sees it. `start`/`end` are offsets into the pattern source, so a warning can
 * quote the offending sub-pattern exactly as written.
 */
import type { CharSet } from './char-set.js';

export type RegexNode = CharsNode | SequenceNode | AlternationNode | GroupNode | RepeatNode | AssertionNode | BackreferenceNode;

interface Located {
  readonly start: number;
  readonly end: number;
}

/** One character drawn from `set`: a literal, `.`, `\d`, a class `[a-z]`, … */
export interface CharsNode extends Located {
  readonly kind: 'chars';
  readonly set: CharSet;
}

export interface SequenceNode extends Located {
  readonly kind: 'sequence';
  readonly items: readonly RegexNode[];
}

export interface AlternationNode extends Located {
  readonly kind: 'alternation';
  readonly branches: readonly RegexNode[];
}

/** `( … )`, `(?: … )`, `(?<name> … )`; lookarounds are zero-width (`lookaround: true`). */
export interface GroupNode extends Located {
  readonly kind: 'group';
  readonly body: RegexNode;
  readonly lookaround: boolean;
}

/** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (lazy or greedy: both backtrack alike). */
export interface RepeatNode extends Located {
  readonly kind: 'repeat';
  readonly body: RegexNode;
  readonly min: number;
  /** `Infinity` when unbounded. */
  readonly max: number;
}

/** `^`, `$`, `\b`, `\B`: zero-width. */
export interface AssertionNode extends Located {
  readonly kind: 'assertion';
}

/** `\1`, `\k<name>`: matches text only known at run time. */
export interface BackreferenceNode extends Located {
  readonly kind: 'backreference';
}
