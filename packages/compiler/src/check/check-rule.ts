/**
 * One rule: a static `outcome` it emits when matched, a `severity` tier that orders and
 * protects it (docs/spec/adjudication.md §3: outcome and severity are independent axes), an optional
 * `applies_when` filter, the `when` predicate, a `reason`, `suppresses`, `timeout` and
 * `weight`. Suppressions are resolved later, once every rule of the world is known.
 */
import type { Identifier, RuleClause, RuleDecl } from '@adec/grammar';
import type { Span } from '@adec/diagnostics';
import type { Aggregation, CheckedExpr, CheckedTemplate, RuleOutcome, SeverityTier } from '../model/index.js';
import { bindingOnlySink, firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import type { ExprScope } from './scope.js';
import { checkCondition } from './check-expr.js';
import { checkTemplate } from './check-template.js';
import { presentWhenTrue } from './narrowing.js';
import { signFactsOf } from './sign-facts.js';
import { contextScope, type ContextView, type DeclaredAttribute } from './check-context.js';
import { asOutcome, asSeverity, outcomeHelp, severityHelp } from './spellings.js';
import { checkPredicateTimeout } from './timeouts.js';

/** A rule as checked so far: everything but its suppressions, which need the other rules. */
export interface RuleDraft {
  readonly id: string;
  readonly idSpan: Span;
  readonly action: string;
  readonly outcome?: RuleOutcome;
  readonly severity?: SeverityTier;
  readonly appliesWhen?: CheckedExpr;
  readonly when?: CheckedExpr;
  readonly reason?: CheckedTemplate;
  readonly suppresses: readonly Identifier[];
  readonly timeoutMs?: number;
  readonly weight?: number;
  readonly reads: readonly string[];
  readonly span: Span;
}

const CLAUSE_NAMES: Readonly<Record<RuleClause['kind'], string>> = {
  OutcomeClause: 'outcome',
  SeverityClause: 'severity',
  AppliesWhenClause: 'applies_when',
  WhenClause: 'when',
  ReasonClause: 'reason',
  SuppressesClause: 'suppresses',
  TimeoutClause: 'timeout',
  WeightClause: 'weight',
};

type ClauseOf<K extends RuleClause['kind']> = Extract<RuleClause, { kind: K }>;

export function checkRule(
  decl: RuleDecl,
  action: string,
  aggregation: Aggregation,
  view: ContextView,
  sink: DiagnosticSink,
  onUse: (attribute: DeclaredAttribute) => void,
): RuleDraft {
  const id = decl.id.name;
  sink.recorder?.declare('rule', id, decl.id.span);
  const owner = `rule \`${id}\``;
  const clause = firstClauses(decl, owner, sink);
  const reads = new Set<string>();
  const scope = contextScope(view, (attribute) => {
    reads.add(attribute.name);
    onUse(attribute);
  });

  for (const required of ['OutcomeClause', 'SeverityClause', 'WhenClause'] as const) {
    if (clause(required) === undefined) sink.report('ADEC4003', decl.id.span, { clause: CLAUSE_NAMES[required], owner });
  }
  const outcomeWord = clause('OutcomeClause')?.value;
  const outcome = outcomeWord && asOutcome(outcomeWord.text);
  if (outcomeWord && outcome === undefined && outcomeWord.text !== '') {
    sink.report('ADEC4005', outcomeWord.span, { text: outcomeWord.text }, outcomeHelp(outcomeWord.text));
  }
  const severityWord = clause('SeverityClause')?.value;
  const severity = severityWord && asSeverity(severityWord.text);
  if (severityWord && severity === undefined && severityWord.text !== '') {
    sink.report('ADEC4006', severityWord.span, { text: severityWord.text }, severityHelp(severityWord.text));
  }

  const appliesWhenClause = clause('AppliesWhenClause');
  const appliesWhen = appliesWhenClause && checkCondition(appliesWhenClause.condition, 'applies_when', scope, sink);
  const whenClause = clause('WhenClause');
  // `when` runs only where `applies_when` held (docs/spec/adjudication.md 2.4.2), so it may divide
  // by what that proves non-zero; presence stays its own: the generated predicate is typed alone.
  const provenForWhen = appliesWhenClause ? signFactsOf(presentWhenTrue(appliesWhenClause.condition)) : undefined;
  const when = whenClause && checkCondition(whenClause.condition, 'when', scope, sink, provenForWhen);
  const reasonClause = clause('ReasonClause');
  // A reason is rendered only for a rule that matched: its applies_when and when both held,
  // so what they prove present is present in it (`when x IS NOT NULL and …` → `{x}`), and
  // what they prove non-zero may divide (`when count > 0 and …` → `{amount / count}`).
  const presentInReason = new Set([...(appliesWhenClause ? presentWhenTrue(appliesWhenClause.condition) : []), ...(whenClause ? presentWhenTrue(whenClause.condition) : [])]);
  const reason = reasonClause && checkTemplate(reasonClause.template, scope, sink, presentInReason);

  const bindingOnly = bindingOnlySink(sink);
  if (bindingOnly !== undefined) bindRepeatedClauses(decl, clause, contextScope(view, () => undefined), bindingOnly);

  const timeout = clause('TimeoutClause')?.duration;
  const timeoutMs = timeout && checkPredicateTimeout(timeout, sink) ? timeout.milliseconds : undefined;
  const weight = checkWeight(clause('WeightClause'), id, action, aggregation, sink);

  return {
    id,
    idSpan: decl.id.span,
    action,
    ...(outcome !== undefined && { outcome }),
    ...(severity !== undefined && { severity }),
    ...(appliesWhen !== undefined && { appliesWhen }),
    ...(when !== undefined && { when }),
    ...(reason !== undefined && { reason }),
    suppresses: clause('SuppressesClause')?.rules ?? [],
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(weight !== undefined && { weight }),
    reads: [...reads].sort(),
    span: decl.span,
  };
}

/** The names in a repeated `applies_when`, `when` or `reason`, which checking skips (ADEC4009). */
function bindRepeatedClauses(decl: RuleDecl, first: (kind: RuleClause['kind']) => RuleClause | undefined, scope: ExprScope, sink: DiagnosticSink): void {
  for (const repeated of decl.clauses.filter((c) => first(c.kind) !== c)) {
    if (repeated.kind === 'AppliesWhenClause' || repeated.kind === 'WhenClause') checkCondition(repeated.condition, 'when', scope, sink);
    else if (repeated.kind === 'ReasonClause') checkTemplate(repeated.template, scope, sink);
  }
}

/** The first occurrence of each clause; a repeated clause is ADEC4009. */
function firstClauses(decl: RuleDecl, owner: string, sink: DiagnosticSink): <K extends RuleClause['kind']>(kind: K) => ClauseOf<K> | undefined {
  const first = new Map<RuleClause['kind'], RuleClause>();
  for (const clause of decl.clauses) {
    const earlier = first.get(clause.kind);
    if (earlier !== undefined) {
      sink.report('ADEC4009', clause.span, { clause: CLAUSE_NAMES[clause.kind], owner }, { notes: [firstDeclaredAt(earlier.span)] });
      continue;
    }
    first.set(clause.kind, clause);
  }
  return <K extends RuleClause['kind']>(kind: K) => first.get(kind) as ClauseOf<K> | undefined;
}

/**
 * A vote weight for weighted_sum_threshold, in (0, 1]. Elsewhere it has no effect, which
 * is worth a warning (ADEC5007) rather than an error: the rule still works.
 */
function checkWeight(clause: ClauseOf<'WeightClause'> | undefined, rule: string, action: string, aggregation: Aggregation, sink: DiagnosticSink): number | undefined {
  if (clause === undefined) return undefined;
  const weight = clause.weight.value;
  if (!(weight > 0 && weight <= 1)) {
    sink.report('ADEC4012', clause.weight.span, { value: weight, name: rule });
    return undefined;
  }
  if (aggregation.mode !== 'weighted_sum_threshold') {
    sink.report('ADEC5007', clause.span, { rule, action, mode: aggregation.mode });
  }
  return weight;
}
