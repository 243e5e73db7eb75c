/**
 * Actions: what an agent asks to do. Each has its own view of the context (the shared
 * attributes plus its own), an aggregation mode, rules and work_frame templates.
 */
import type { ActionDecl } from '@adec/grammar';
import type { CheckedAction, CheckedRule, CheckedTemplate, RuleOutcome, WorkFrameTemplate } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { checkAggregation, checkQuorum } from './check-aggregation.js';
import {
  checkDerivations,
  contextScope,
  contextView,
  declareAttributes,
  orderedContext,
  reportDerivationCycles,
  type ContextView,
  type DeclaredAttribute,
} from './check-context.js';
import { checkRule, type RuleDraft } from './check-rule.js';
import { resolveSuppressions } from './check-suppressions.js';
import { checkWorkFrames } from './check-work-frame.js';

/** What later steps (tests, unused-attribute warnings) need to know about an action. */
export interface ActionInfo {
  readonly name: string;
  readonly decl: ActionDecl;
  readonly view: ContextView;
  readonly ruleIds: readonly string[];
  /** The outcome of each rule, undefined where it was invalid (already reported). */
  readonly ruleOutcomes: readonly (RuleOutcome | undefined)[];
  /** The rules as checked, in order: their conditions decide what a test's context can produce. */
  readonly rules: readonly RuleDraft[];
  /** Each rule's checked reason, by rule id (what a test may expect it to read). */
  readonly reasons: ReadonlyMap<string, CheckedTemplate>;
  /** The `on STATUS { … }` work frames, by status (what a test may expect the work frame to say). */
  readonly workFrames: Partial<Record<RuleOutcome, WorkFrameTemplate>>;
}

export interface CheckedActions {
  readonly actions: readonly CheckedAction[];
  readonly infos: ReadonlyMap<string, ActionInfo>;
}

export function checkActions(
  decls: readonly ActionDecl[],
  shared: ContextView,
  sink: DiagnosticSink,
  onUse: (attribute: DeclaredAttribute) => void,
): CheckedActions {
  const infos = new Map<string, ActionInfo>();
  const drafts: { decl: ActionDecl; view: ContextView; rules: RuleDraft[]; partial: Omit<CheckedAction, 'rules'> }[] = [];
  const firstRule = new Map<string, RuleDraft>();
  const actionNames = decls.map((decl) => decl.name.name);

  for (const decl of decls) {
    const name = decl.name.name;
    sink.recorder?.declare('action', name, decl.name.span);
    const earlier = infos.get(name);
    if (earlier !== undefined) {
      sink.report('ADEC2010', decl.name.span, { kind: 'action', name }, { notes: [firstDeclaredAt(earlier.decl.name.span)] });
    }
    const own = declareAttributes(decl.contexts, shared, sink);
    const view = contextView([...shared.attributes, ...own]);
    sink.recorder?.scope('action', decl.name.span, contextScope(view, () => undefined));
    checkDerivations(own, view, sink, onUse);
    reportDerivationCycles(own, sink);

    const aggregation = checkAggregation(decl.aggregations, name, sink);
    const rules = decl.rules.map((rule) => checkRule(rule, name, aggregation, view, sink, onUse));
    checkQuorum(decl.aggregations, aggregation, rules, name, sink);
    for (const rule of rules) {
      const first = firstRule.get(rule.id);
      // Rule ids key the module ABI's tables (`_RULE_FUNCTIONS`, …), so they are unique world-wide.
      if (first !== undefined) sink.report('ADEC2010', rule.idSpan, { kind: 'rule', name: rule.id }, { notes: [firstDeclaredAt(first.idSpan)] });
      else if (rule.id !== '') firstRule.set(rule.id, rule);
    }
    const workFrames = checkWorkFrames(decl.workFrames, name, actionNames, sink);
    if (earlier === undefined) infos.set(name, { name, decl, view, ruleIds: rules.map((r) => r.id), ruleOutcomes: rules.map((r) => r.outcome), rules, reasons: new Map(rules.flatMap((r) => (r.reason === undefined ? [] : [[r.id, r.reason] as const]))), workFrames });
    drafts.push({ decl, view, rules, partial: { name, context: [], aggregation, workFrames, span: decl.span } });
  }

  const suppressions = resolveSuppressions(drafts.flatMap((d) => d.rules), sink);
  const actions = drafts.map(({ view, rules, partial }) => ({
    ...partial,
    // Ordered after every derivation of the world is checked, so dependencies are known.
    context: orderedContext(view),
    rules: rules.flatMap((rule) => completeRule(rule, suppressions.get(rule) ?? [])),
  }));
  return { actions, infos };
}

/** The checked rule, or nothing if a required part was missing (already reported). */
function completeRule(draft: RuleDraft, suppresses: readonly string[]): CheckedRule[] {
  const { outcome, severity, when } = draft;
  if (outcome === undefined || severity === undefined || when === undefined) return [];
  return [
    {
      id: draft.id,
      action: draft.action,
      outcome,
      severity,
      ...(draft.appliesWhen !== undefined && { appliesWhen: draft.appliesWhen }),
      when,
      ...(draft.reason !== undefined && { reason: draft.reason }),
      suppresses,
      ...(draft.timeoutMs !== undefined && { timeoutMs: draft.timeoutMs }),
      ...(draft.weight !== undefined && { weight: draft.weight }),
      reads: draft.reads,
      span: draft.span,
    },
  ];
}
