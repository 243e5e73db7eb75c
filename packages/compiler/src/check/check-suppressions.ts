/**
 * `suppresses`: a matched rule removes other rules of its own action from the matched set.
 * T1 rules are the hard floor and can never be suppressed (ADR-106 D3), so naming one is
 * an error rather than something the runtime silently ignores.
 */
import type { DiagnosticSink } from './checker-context.js';
import type { RuleDraft } from './check-rule.js';
import { didYouMeanName } from './suggestions.js';

/** Checks every `suppresses` list against the world's rules (first declaration of each id wins). */
export function resolveSuppressions(rules: readonly RuleDraft[], sink: DiagnosticSink): Map<RuleDraft, string[]> {
  const byId = new Map<string, RuleDraft>();
  for (const rule of rules) if (!byId.has(rule.id)) byId.set(rule.id, rule);
  const resolved = new Map<RuleDraft, string[]>();
  for (const rule of rules) {
    const targets: string[] = [];
    for (const ref of rule.suppresses) {
      const name = ref.name;
      if (name === '' || targets.includes(name)) continue;
      const target = byId.get(name);
      if (name === rule.id) {
        sink.report('ADEC4008', ref.span, { rule: rule.id, target: name, problem: 'a rule cannot suppress itself' });
      } else if (target === undefined) {
        const sameAction = rules.filter((r) => r.action === rule.action && r.id !== rule.id).map((r) => r.id);
        sink.report('ADEC2003', ref.span, { name }, didYouMeanName(name, sameAction));
      } else if (target.action !== rule.action) {
        sink.report('ADEC4008', ref.span, {
          rule: rule.id,
          target: name,
          problem: `it is a rule of action \`${target.action}\`, and a rule suppresses only rules of its own action`,
        });
      } else if (target.severity === 't1') {
        sink.report('ADEC4007', ref.span, { rule: rule.id, target: name });
      } else {
        targets.push(name);
      }
    }
    resolved.set(rule, targets);
  }
  return resolved;
}
