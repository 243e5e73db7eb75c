/**
 * Do two regular expressions overlap as alternatives of a repeated choice? They do when
 * some non-empty text one of them matches is also a prefix of text the other can match
 * (`a` and `ab`, `\d` and `\d\d`, `a` and `a`): a backtracking matcher then has two ways to
 * start an iteration. Decided on Thompson automata of both branches, by a breadth-first
 * search of their product; languages are over-approximated (counted repeats beyond 3 become
 * loops, back-references match anything), which can only add overlaps, never hide one.
 */
import { ANY_CHAR, intersects, type CharSet } from './char-set.js';
import type { RegexNode } from './regex-ast.js';

/** Product states explored before giving up (and claiming nothing). */
const MAX_PRODUCT_STATES = 20_000;
/** Counted repetitions are unrolled at most this many times, then looped. */
const MAX_UNROLLED_COPIES = 3;

interface Automaton {
  readonly start: number;
  readonly accept: number;
  readonly epsilon: readonly (readonly number[])[];
  readonly edges: readonly (readonly { readonly set: CharSet; readonly to: number }[])[];
}

export function prefixOverlap(a: RegexNode, b: RegexNode): boolean {
  const left = buildAutomaton(a);
  const right = buildAutomaton(b);
  const leftClosures = closures(left);
  const rightClosures = closures(right);
  const seen = new Set<string>();
  const queue: [number, number][] = [];
  const visit = (p: number, q: number): boolean => {
    for (const p2 of leftClosures[p]!) {
      for (const q2 of rightClosures[q]!) {
        if (p2 === left.accept || q2 === right.accept) return true;
        const key = `${p2},${q2}`;
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push([p2, q2]);
      }
    }
    return false;
  };
  // The start pair itself is not checked for acceptance: the shared text must be non-empty.
  for (const p of leftClosures[left.start]!) {
    for (const q of rightClosures[right.start]!) {
      seen.add(`${p},${q}`);
      queue.push([p, q]);
    }
  }
  while (queue.length > 0) {
    if (seen.size > MAX_PRODUCT_STATES) return false;
    const [p, q] = queue.shift()!;
    for (const leftEdge of left.edges[p]!) {
      for (const rightEdge of right.edges[q]!) {
        if (intersects(leftEdge.set, rightEdge.set) && visit(leftEdge.to, rightEdge.to)) return true;
      }
    }
  }
  return false;
}

function buildAutomaton(node: RegexNode): Automaton {
  const epsilon: number[][] = [];
  const edges: { set: CharSet; to: number }[][] = [];
  const newState = (): number => {
    epsilon.push([]);
    edges.push([]);
    return epsilon.length - 1;
  };
  const link = (from: number, to: number): void => void epsilon[from]!.push(to);

  const build = (current: RegexNode, from: number): number => {
    switch (current.kind) {
      case 'chars': {
        const to = newState();
        edges[from]!.push({ set: current.set, to });
        return to;
      }
      case 'sequence':
        return current.items.reduce((state, item) => build(item, state), from);
      case 'alternation': {
        const end = newState();
        for (const branch of current.branches) link(build(branch, from), end);
        return end;
      }
      case 'group':
        return current.lookaround ? from : build(current.body, from);
      case 'assertion':
        return from;
      case 'backreference': {
        const loop = newState();
        link(from, loop);
        edges[loop]!.push({ set: ANY_CHAR, to: loop });
        return loop;
      }
      case 'repeat': {
        const copies = Math.min(current.min, MAX_UNROLLED_COPIES);
        let state = from;
        for (let i = 0; i < copies; i++) state = build(current.body, state);
        if (current.max === copies) return state;
        const loop = newState();
        link(state, loop);
        link(build(current.body, loop), loop);
        return loop;
      }
    }
  };

  const start = newState();
  const accept = build(node, start);
  return { start, accept, epsilon, edges };
}

function closures(automaton: Automaton): number[][] {
  return automaton.epsilon.map((_, state) => {
    const reached = new Set([state]);
    const stack = [state];
    while (stack.length > 0) {
      for (const next of automaton.epsilon[stack.pop()!]!) {
        if (!reached.has(next)) {
          reached.add(next);
          stack.push(next);
        }
      }
    }
    return [...reached].sort((x, y) => x - y);
  });
}
