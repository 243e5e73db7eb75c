/**
 * What the tests exercised: every rule of every action should be matched by at least one
 * test (rule coverage), every template of every skill rendered by one (template coverage),
 * and guardrails that never fired are worth knowing about.
 */
import type { CheckedWorld } from '@adec/compiler';
import type { TestOutcome } from './test-outcome.js';

export interface Coverage {
  readonly rules: CoverageCount & { readonly uncovered: readonly { readonly action: string; readonly rules: readonly string[] }[] };
  readonly guardrails: CoverageCount & { readonly never_fired: readonly { readonly scenario: string; readonly guardrails: readonly string[] }[] };
  readonly templates: CoverageCount & { readonly never_rendered: readonly { readonly skill: string; readonly templates: readonly string[] }[] };
}

export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
  /** Rounded down, so 99.5% never reads as 100%; 100 when there is nothing to cover. */
  readonly percent: number;
}

export function measureCoverage(world: CheckedWorld, outcomes: readonly TestOutcome[]): Coverage {
  const matched = collect(outcomes, (o) => (o.kind === 'adjudication' && o.decision !== null ? [o.action, o.decision.decision_metadata.matched_rules] : undefined));
  const fired = collect(outcomes, (o) =>
    o.kind === 'selection' && o.selection !== null
      ? [o.scenario, o.selection.stages.evaluate_guardrails.guardrails.filter((g) => g.fired).map((g) => g.id)]
      : undefined,
  );
  const rendered = collect(outcomes.flatMap((o) => (o.kind === 'selection' ? o.rendered : [])), ({ skill, template }) => [skill, [template]]);
  const rules = world.actions.map((action) => ({ owner: action.name, ids: action.rules.map((r) => r.id), hit: matched.get(action.name) }));
  const guardrails = world.scenarios.map((scenario) => ({ owner: scenario.id, ids: scenario.guardrails.map((g) => g.id), hit: fired.get(scenario.id) }));
  const rulesMissed = missed(rules);
  const guardrailsMissed = missed(guardrails);
  const templates = world.skills.map((skill) => ({ owner: skill.id, ids: skill.templates.map((t) => t.name), hit: rendered.get(skill.id) }));
  const templatesMissed = missed(templates);
  return {
    rules: { ...count(rules, rulesMissed), uncovered: rulesMissed.map(({ owner, ids }) => ({ action: owner, rules: ids })) },
    guardrails: { ...count(guardrails, guardrailsMissed), never_fired: guardrailsMissed.map(({ owner, ids }) => ({ scenario: owner, guardrails: ids })) },
    templates: { ...count(templates, templatesMissed), never_rendered: templatesMissed.map(({ owner, ids }) => ({ skill: owner, templates: ids })) },
  };
}

interface Covered {
  readonly owner: string;
  readonly ids: readonly string[];
  readonly hit: ReadonlySet<string> | undefined;
}

/** owner → every id some item (an outcome, a rendered template) reported for it. */
function collect<T>(items: readonly T[], hits: (item: T) => readonly [string, readonly string[]] | undefined): Map<string, Set<string>> {
  const byOwner = new Map<string, Set<string>>();
  for (const item of items) {
    const found = hits(item);
    if (found === undefined) continue;
    const [owner, ids] = found;
    const set = byOwner.get(owner) ?? new Set<string>();
    for (const id of ids) set.add(id);
    byOwner.set(owner, set);
  }
  return byOwner;
}

/** Per owner, in declaration order, the ids no outcome reported; owners with none are left out. */
function missed(items: readonly Covered[]): { owner: string; ids: string[] }[] {
  return items.map(({ owner, ids, hit }) => ({ owner, ids: ids.filter((id) => hit?.has(id) !== true) })).filter(({ ids }) => ids.length > 0);
}

function count(items: readonly Covered[], misses: readonly { ids: readonly string[] }[]): CoverageCount {
  const total = items.reduce((sum, item) => sum + item.ids.length, 0);
  const covered = total - misses.reduce((sum, miss) => sum + miss.ids.length, 0);
  return { covered, total, percent: total === 0 ? 100 : Math.floor((covered * 100) / total) };
}
