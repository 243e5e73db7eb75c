/**
 * Fallbacks (docs/spec/skill-contract.md §6): a skill falls back to a deterministic skill that exists, is not
 * itself, does not lead back to it, and answers within the 20ms a fallback has, so a failing
 * skill always ends at an output in time.
 */
import type { DiagnosticSink } from './checker-context.js';
import type { SkillInfo } from './check-skill.js';
import { formatCycle } from './dependency-order.js';
import { FALLBACK_TIMEOUT_MS } from './skill-timeouts.js';
import { didYouMeanName } from './suggestions.js';
import { declarationAt } from './name-bindings.js';

export function checkFallbacks(skills: readonly SkillInfo[], byId: ReadonlyMap<string, SkillInfo>, sink: DiagnosticSink): void {
  const reportedCycles = new Set<string>();
  for (const skill of skills) {
    const fallback = skill.fallback;
    if (fallback === undefined || fallback.name === '') continue;
    const target = byId.get(fallback.name);
    if (target !== undefined) sink.recorder?.refer(fallback.span, declarationAt(target.idSpan));
    const problem = (text: string) => sink.report('ADEC4016', fallback.span, { skill: skill.id, fallback: fallback.name, problem: text });
    if (fallback.name === skill.id) {
      problem('which is itself');
    } else if (target === undefined) {
      sink.report('ADEC2004', fallback.span, { name: fallback.name }, didYouMeanName(fallback.name, byId.keys()));
    } else if (target.type === 'llm') {
      problem('which is an llm skill: fallbacks must be deterministic');
    } else if (target.timeoutMs > FALLBACK_TIMEOUT_MS) {
      // The mistake is the fallback's timeout, set longer than a fallback may take: reported
      // there (often another file than the skill that falls back), pointing at the `fallback`.
      const named = `\`${skill.id}\` names it as its fallback at ${fallback.span.file}:${fallback.span.line}:${fallback.span.column}`;
      sink.report('ADEC4016', target.timeoutSpan ?? fallback.span, { skill: skill.id, fallback: fallback.name, problem: `which may run for ${target.timeoutMs}ms: a fallback must answer within ${FALLBACK_TIMEOUT_MS}ms` }, target.timeoutSpan === undefined ? {} : { notes: [named] });
    } else {
      const cycle = fallbackCycle(skill, byId);
      if (cycle !== undefined && !cycle.some((id) => reportedCycles.has(id))) {
        cycle.forEach((id) => reportedCycles.add(id));
        problem(`which leads back to it: ${formatCycle(cycle)}`);
      }
    }
  }
}

/** The chain `a → b → a` when following fallbacks from `start` comes back to it. */
function fallbackCycle(start: SkillInfo, byId: ReadonlyMap<string, SkillInfo>): string[] | undefined {
  const chain = [start.id];
  let current = start;
  while (current.fallback !== undefined) {
    const next = byId.get(current.fallback.name);
    if (next === undefined || next === current) return undefined;
    if (next.id === start.id) return [...chain, start.id];
    if (chain.includes(next.id)) return undefined; // a cycle not through `start`: reported from its own members
    chain.push(next.id);
    current = next;
  }
  return undefined;
}
