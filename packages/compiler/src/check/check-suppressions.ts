/**
 * `suppresses`: a matched rule removes other rules of its own action from the matched set.
 * T1 rules are the hard floor and can never be suppressed (docs/spec/adjudication.md §4), so naming one is
 * an error rather than something the runtime silently ignores.
 */
import type { Span } from '@adec/diagnostics';
import type { ActionDecl } from '@adec/grammar';
import type { DiagnosticSink } from './checker-context.js';
import type { RuleDraft } from './check-rule.js';
import { dependencyOrder, formatCycle } from './dependency-order.js';
import { didYouMeanName } from './suggestions.js';
import { declarationAt } from './name-bindings.js';

/** Checks every `suppresses` list against the world's rules (first declaration of each id wins). */
export function resolveSuppressions(rules: readonly RuleDraft[], sink: DiagnosticSink): Map<RuleDraft, string[]> {
  const byId = new Map<string, RuleDraft>();
  for (const rule of rules) if (!byId.has(rule.id)) byId.set(rule.id, rule);
  const resolved = new Map<RuleDraft, string[]>();
  for (const rule of rules) {
    const targets: string[] = [];
    for (const ref of rule.suppresses) {
      const name = ref.name;
      if (name === '') continue;
      const target = byId.get(name);
      if (target !== undefined) sink.recorder?.refer(ref.span, declarationAt(target.idSpan));
      if (targets.includes(name)) continue;
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
  reportSuppressionCycles(byId, resolved, sink);
  return resolved;
}

/**
 * ADEC4008 for each cycle of suppressions, at the first of its rules. A suppressed rule still
 * suppresses, so when every rule of a cycle matches, each removes the next and none of them
 * decides: the author meant one of them to win, and the world does not say which.
 */
function reportSuppressionCycles(byId: ReadonlyMap<string, RuleDraft>, resolved: ReadonlyMap<RuleDraft, readonly string[]>, sink: DiagnosticSink): void {
  const rules = [...byId.values()];
  const { cycles } = dependencyOrder(rules.map((rule) => ({ name: rule.id, dependsOn: new Set(resolved.get(rule)) })));
  for (const cycle of cycles) {
    const [from, to] = cycle as [string, string];
    const ref = byId.get(from)?.suppresses.find((s) => s.name === to);
    if (ref === undefined) continue;
    sink.report(
      'ADEC4008',
      ref.span,
      { rule: from, target: to, problem: `the rules suppress each other in a cycle, ${formatCycle(cycle)}` },
      { help: 'when every rule of the cycle matches, each removes another and none decides: keep the suppression that says which rule wins' },
    );
  }
}

/**
 * Where each rule names each rule it suppresses, for the warnings about suppressions that run
 * after checking (ADEC5011): rule ids are unique in a world that checked clean.
 */
export function suppressionSpans(decls: readonly ActionDecl[]): (rule: string, target: string) => Span | undefined {
  const spans = new Map<string, Map<string, Span>>();
  for (const rule of decls.flatMap((decl) => decl.rules)) {
    const named = spans.get(rule.id.name) ?? new Map<string, Span>();
    spans.set(rule.id.name, named);
    for (const clause of rule.clauses) {
      if (clause.kind !== 'SuppressesClause') continue;
      for (const ref of clause.rules) if (!named.has(ref.name)) named.set(ref.name, ref.span);
    }
  }
  return (rule, target) => spans.get(rule)?.get(target);
}
