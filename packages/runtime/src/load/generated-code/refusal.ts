/**
 * Why a piece of a bundle is not generated code, and where: the verifier's checks return one
 * (or undefined when the piece is generated code) instead of throwing, and only the first
 * refusal is turned into a line and column (verify-generated-code.ts), so a bundle that passes
 * costs no position bookkeeping.
 */
import type { Node } from 'acorn';

export interface Refusal {
  readonly problem: string;
  /** The offset in the bundle the problem is at. */
  readonly offset: number;
}

export function refusal(at: Node | number, problem: string): Refusal {
  return { problem, offset: typeof at === 'number' ? at : at.start };
}

/** "a `WhileStatement` is not generated code", with where it was met when that helps. */
export function notGenerated(node: Node, where?: string): Refusal {
  return refusal(node, `${article(node.type)} \`${node.type}\` is not generated code${where === undefined ? '' : ` ${where}`}`);
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}
