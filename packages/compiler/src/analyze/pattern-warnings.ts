/**
 * ADEC5004: `MATCHES` patterns and skill prohibitions prone to catastrophic backtracking
 * (regex/backtracking.ts), reported at the expression or the prohibition.
 */
import { diagnostic, type Diagnostic } from '@adec/diagnostics';
import type { CheckedExpr, CheckedProhibition } from '../model/index.js';
import { childExpressions } from './finite-model.js';
import { backtrackingRisk } from './regex/backtracking.js';

/** Every `MATCHES` / `NOT MATCHES` inside `roots` whose pattern is at risk. */
export function checkPatterns(roots: readonly CheckedExpr[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // In source order, with a stack: a chain `a or b or …` can be 10,000 operands long.
  const pending: CheckedExpr[] = [...roots].reverse();
  while (pending.length > 0) {
    const expr = pending.pop()!;
    if (expr.kind === 'matches') {
      const problem = backtrackingRisk(expr.source, expr.flags);
      if (problem !== undefined) diagnostics.push(diagnostic('ADEC5004', expr.span, { problem }));
    }
    const children = childExpressions(expr);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return diagnostics;
}

export function checkProhibitions(prohibitions: readonly CheckedProhibition[]): Diagnostic[] {
  return prohibitions.flatMap((prohibition) => {
    const problem = backtrackingRisk(prohibition.source, prohibition.flags);
    return problem === undefined ? [] : [diagnostic('ADEC5004', prohibition.span, { problem })];
  });
}
