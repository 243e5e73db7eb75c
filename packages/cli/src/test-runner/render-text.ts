/**
 * The text report of a test run, as a test runner prints it: one line per test (`✓`/`✗`, name,
 * where it is declared), under each failure a readable diff of expected and actual with what
 * explains the actual result, then coverage and the summary.
 */
import type { Decision } from '@adec/runtime';
import type { ActionScore, Selection, SelectionError } from '@adec/engine';
import type { Coverage } from './coverage.js';
import type { TestRun } from './run-tests.js';
import { differingFields, type DecisionFacts, type Expectation } from './decision-expectations.js';
import type { SkillFacts, SkillMismatch } from './skill-expectations.js';
import type { AdjudicationOutcome, SelectionOutcome, SelectionVerdict, TestOutcome } from './test-outcome.js';

const DETAIL = '    ';
const ITEM = '      ';

export function renderTestRun(run: TestRun): string {
  const lines = run.outcomes.flatMap(renderOutcome);
  // A failure's details already end with a blank line.
  if (lines.at(-1) !== '') lines.push('');
  lines.push(...renderCoverage(run.coverage, run.filter !== null), '', summaryLine(run));
  return `${lines.join('\n')}\n`;
}

function summaryLine({ outcomes, filter }: TestRun): string {
  const passed = outcomes.filter((o) => o.passed).length;
  const left = filter === null ? '' : ` (${filter.skipped} left out by --filter ${JSON.stringify(filter.pattern)})`;
  return `${passed} passed, ${outcomes.length - passed} failed${left}`;
}

function renderOutcome(outcome: TestOutcome): string[] {
  const header = `${outcome.passed ? '✓' : '✗'} ${outcome.name} (${outcome.file}:${outcome.line})`;
  if (outcome.passed) return [header];
  return [header, ...(outcome.kind === 'adjudication' ? adjudicationDiff(outcome) : selectionDiff(outcome)), ''];
}

// ── Adjudication ─────────────────────────────────────────────────────────────────────────

function adjudicationDiff(outcome: AdjudicationOutcome): string[] {
  const { expected, actual, decision } = outcome;
  const lines = [`${DETAIL}expected  ${expected.rule === null ? expected.status : `${expected.status} by ${expected.rule}`}`];
  if (decision === null || actual === null) return [...lines, `${DETAIL}actual    error: ${outcome.error ?? 'no decision'}`];
  lines.push(`${DETAIL}actual    ${describeDecision(decision)}`);
  for (const failed of outcome.failed) lines.push(...expectationDiff(failed, expected, actual));
  return [...lines, ...decisionExplanation(decision)];
}

/** An expectation besides the status that did not hold, as expected and actual lines. */
function expectationDiff(failed: Expectation, expected: DecisionFacts, actual: DecisionFacts): string[] {
  const pair = (what: string, want: string, got: string) => [`${DETAIL}expected  ${what}${want}`, `${DETAIL}actual    ${what}${got}`];
  switch (failed) {
    case 'status':
      return [];
    case 'reason':
      return pair('reason ', JSON.stringify(expected.reason), actual.reason === null ? '(none)' : JSON.stringify(actual.reason));
    case 'basis':
      return pair('reason ', expected.basis!, actual.basis!);
    case 'work_frame':
      return differingFields(expected.work_frame!, actual.work_frame!).flatMap((field) =>
        pair(`work_frame.${field} `, JSON.stringify(expected.work_frame![field]), JSON.stringify(actual.work_frame![field])),
      );
    case 'missing_evidence':
      return pair('missing_evidence ', `[${expected.missing_evidence!.join(', ')}]`, `[${actual.missing_evidence!.join(', ')}]`);
  }
}

function describeDecision(decision: Decision): string {
  const aggregation = decision.decision_metadata.aggregation_outcome;
  const byRule = aggregation.winning_rule === null ? ` (${aggregation.basis})` : ` by ${aggregation.winning_rule}`;
  if (!aggregation.error_floor_applied) return `${decision.status}${byRule}`;
  return `${decision.status} (raised by the error floor from ${aggregation.status}${byRule})`;
}

function decisionExplanation(decision: Decision): string[] {
  const metadata = decision.decision_metadata;
  const width = Math.max(0, ...metadata.matched_rule_outcomes.map((m) => m.rule_id.length));
  const matched = metadata.matched_rule_outcomes.map((m) => {
    const why = m.suppressed_by !== null ? `suppressed by ${m.suppressed_by}` : m.reason !== null ? JSON.stringify(m.reason) : '';
    return `${ITEM}${m.rule_id.padEnd(width)}  ${m.outcome.padEnd(10)}  ${m.severity}  ${why}`.trimEnd();
  });
  return [
    ...section('matched rules', matched, 'none'),
    ...section('errored predicates', metadata.errored_predicates.map((e) => `${ITEM}${e.rule_id}  ${e.kind}${e.phase === null ? '' : ` in ${e.phase}`}: ${e.message}`)),
    ...section('errored derivations', metadata.errored_derivations.map((e) => `${ITEM}${e.attribute}  ${e.kind}: ${e.message}`)),
    ...section('context errors', metadata.context_errors.map((e) => `${ITEM}${e.path}: ${e.message}`)),
  ];
}

// ── Selection ────────────────────────────────────────────────────────────────────────────

function selectionDiff(outcome: SelectionOutcome): string[] {
  const lines = [`${DETAIL}expected  ${describeVerdict(outcome.expected)}`];
  if (outcome.selection === null) return [...lines, ...engineError(outcome.error)];
  // Selected as expected: what failed is the skill's part, shown against what the skill gave.
  if (outcome.skillMismatches.length > 0) return [...outcome.skillMismatches.flatMap((m) => skillMismatchDiff(m, outcome.skill)), ...skillExplanation(outcome.skill)];
  return [...lines, `${DETAIL}actual    ${describeVerdict(outcome.selection)}`, ...selectionExplanation(outcome.selection)];
}

function skillMismatchDiff(mismatch: SkillMismatch, skill: SkillFacts | null): string[] {
  if (mismatch.kind === 'output') {
    const { field, match, value } = mismatch.check;
    const want = match === 'contains' ? `${field} CONTAINS ${JSON.stringify(value)}` : `${field}: ${JSON.stringify(value)}`;
    return [`${DETAIL}expected  skill output ${want}`, `${DETAIL}actual    skill output ${field}: ${JSON.stringify(mismatch.actual)}`];
  }
  const { expected } = mismatch;
  return [`${DETAIL}expected  skill validation ${(expected.passed ? 'passed' : describeValidation(false, expected.checks))}`, `${DETAIL}actual    skill validation ${actualValidation(skill)}`];
}

function describeValidation(passed: boolean, checks: readonly string[]): string {
  return passed ? 'passed' : ['failed', checks.map((c) => JSON.stringify(c)).join(', ')].join(' ').trimEnd();
}

function actualValidation(skill: SkillFacts | null): string {
  if (skill === null) return 'not run: no skill ran';
  if (skill.validation === null) return 'not run: the skill gave no output';
  // A schema failure is named by its check, as a test names it (the id is the schema keyword).
  return describeValidation(skill.validation.passed, [...new Set(skill.validation.failures.map((f) => (f.check === 'schema_valid' ? f.check : f.id)))]);
}

/** How the skill ran: its validation with each failure, then whose payload the response carries. */
function skillExplanation(skill: SkillFacts | null): string[] {
  if (skill === null) return [];
  const validation = skill.validation === null ? 'gave no output' : skill.validation.passed ? 'validation passed' : 'validation failed';
  const failures = skill.validation?.failures.map((f) => `${ITEM}  ${f.id} at ${f.path}: ${f.message}`) ?? [];
  const fallback = skill.fallback === null ? '' : ` (fallback tier ${skill.fallback.tier}: ${skill.fallback.reason})`;
  const template = skill.template === null ? '' : `, template ${skill.template}`;
  return section('skill', [`${ITEM}${skill.ran} (${skill.executor}): ${validation}`, ...failures, `${ITEM}payload from ${skill.producer}${template}${fallback}: ${JSON.stringify(skill.payload)}`]);
}

function describeVerdict(verdict: SelectionVerdict): string {
  return verdict.status === 'SELECTED' ? `selected ${JSON.stringify(verdict.selected_action)}` : verdict.status;
}

function engineError(error: SelectionError | null): string[] {
  if (error === null) return [`${DETAIL}actual    no selection`];
  return [`${DETAIL}actual    error ${error.code}: ${error.message}`, ...error.problems.map((p) => `${ITEM}${p.path}: ${p.message}`)];
}

function selectionExplanation(selection: Selection): string[] {
  const { evaluate_guardrails: guardrails, score_and_rank: scoring } = selection.stages;
  const scores = new Map(scoring.scores.map((s) => [s.action_id, s]));
  const width = Math.max(0, ...scoring.scores.map((s) => s.action_id.length));
  const ranking = scoring.ranking.map((r) => {
    const keys = r.tie_break_keys.map((k) => JSON.stringify(k)).join(', ') || 'none';
    return `${ITEM}${r.rank}. ${r.action_id.padEnd(width)}  ${scoreText(scores.get(r.action_id)!)}  (keys ${keys})`;
  });
  const unranked = scoring.ranking.length === 0 ? scoring.scores.map((s) => `${ITEM}${s.action_id.padEnd(width)}  ${scoreText(s)}`) : [];
  return [
    ...section('ranking', ranking),
    ...section('scores', unranked),
    ...section('rejected', guardrails.rejected.map((r) => `${ITEM}${r.action_id}  by ${r.violated_guardrails.join(', ')}`)),
    ...section('errors', selection.errors.map((e) => `${ITEM}${e.source}${e.action_id === null ? '' : ` (${e.action_id})`}: ${e.message}`)),
  ];
}

function scoreText(score: ActionScore): string {
  const parts = score.objectives.map((o) => `${o.name} ${o.contribution === null ? 'failed' : formatNumber(o.contribution)}`).join(' + ');
  const risk = score.execution_risk_penalty > 0 ? ` − risk ${formatNumber(score.execution_risk_penalty)}` : '';
  return `${score.final_score === null ? '?' : formatNumber(score.final_score)} = ${parts || '0'}${risk}`;
}

/** Six decimals at most: enough to tell scores apart, without floating-point noise. */
function formatNumber(value: number): string {
  return String(Number(value.toFixed(6)));
}

// ── Coverage ─────────────────────────────────────────────────────────────────────────────

/** `filtered`: only the tests --filter selected ran, so coverage counts only the actions and scenarios they decide. */
function renderCoverage(coverage: Coverage, filtered: boolean): string[] {
  const { rules, guardrails, templates } = coverage;
  // A world of scenarios only has no rules: "0/0 (100%)" would claim coverage of nothing.
  const ruleLine = rules.total === 0 ? `  rule coverage: no rules${filtered ? ' in what --filter selected' : ' in the world'}` : `  rule coverage: ${rules.covered}/${rules.total} (${rules.percent}%)`;
  const lines = [filtered ? 'coverage (of the actions and scenarios --filter selected)' : 'coverage', ruleLine];
  lines.push(...section('uncovered rules', rules.uncovered.map((u) => `${DETAIL}${u.action}: ${u.rules.join(', ')}`), undefined, '  '));
  if (guardrails.total > 0) lines.push(`  guardrails fired: ${guardrails.covered}/${guardrails.total} (${guardrails.percent}%)`);
  lines.push(...section('guardrails that never fired (information)', guardrails.never_fired.map((n) => `${DETAIL}${n.scenario}: ${n.guardrails.join(', ')}`), undefined, '  '));
  if (templates.total > 0) lines.push(`  template coverage: ${templates.covered}/${templates.total} (${templates.percent}%)`);
  lines.push(...section('templates never rendered', templates.never_rendered.map((n) => `${DETAIL}${n.skill}: ${n.templates.join(', ')}`), undefined, '  '));
  return lines;
}

/** A titled list; nothing when it is empty, unless `empty` says what to print instead. */
function section(title: string, items: readonly string[], empty?: string, indent = DETAIL): string[] {
  if (items.length > 0) return [`${indent}${title}`, ...items];
  return empty === undefined ? [] : [`${indent}${title}: ${empty}`];
}
