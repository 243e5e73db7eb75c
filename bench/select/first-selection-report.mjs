/**
 * The "First selection after a load" part of bench/RESULTS.md, from runFirstSelectionBench's
 * result: bench/run.mjs puts it in the selection section; `first-selection-bench.mjs --write`
 * replaces it alone in the last full report.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const HEADING = '### First selection after a load';

/** docs/spec/selection.md §7: per stage (the reference's hard limits) and for a whole selection, by mode. */
export const HARD_LIMITS_MS = {
  stages: { ingest: 10, derive_state: 20, evaluate_guardrails: 15, score_and_rank: 30, resolve_skills: 5, validate_output: 10, fallback: 20, audit_and_replay: 20 },
  execute_skill: { deterministic_only: 20, skill_enhanced: 500 },
  total: { deterministic_only: 150, skill_enhanced: 600 },
};
const STAGES = ['ingest', 'derive_state', 'evaluate_guardrails', 'score_and_rank', 'resolve_skills', 'execute_skill', 'validate_output', 'fallback', 'audit_and_replay'];

const ms = (value) => (value < 1 ? value.toFixed(2) : value < 10 ? value.toFixed(1) : value.toFixed(0));
const percentile = (samples, q) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const spread = (samples) => `${ms(percentile(samples, 0.5))} / ${ms(percentile(samples, 0.95))} / ${ms(Math.max(...samples))}`;
const median = (samples) => percentile(samples, 0.5);
const name = (row) => `${row.isolation}, ${row.mode}${row.prepare ? '' : ', **not prepared**'}`;
const limitOf = (stage, mode) => (stage === 'execute_skill' ? HARD_LIMITS_MS.execute_skill[mode] : HARD_LIMITS_MS.stages[stage]);

/** The stages of one selection over their hard limit, as `stage (ms)`. */
function overLimits(selection, mode) {
  const over = Object.entries(selection.stages).filter(([stage, duration]) => duration > limitOf(stage, mode)).map(([stage, duration]) => `${stage} (${ms(duration)} ms)`);
  if (selection.totalMs > HARD_LIMITS_MS.total[mode]) over.push(`total (${ms(selection.totalMs)} ms)`);
  return over;
}

/** How many selections kept every hard limit; a failed one (a timeout of stages 2–4) kept none. */
function verdict(selections, mode) {
  const over = selections.map((selection) => ('failure' in selection ? [`${selection.failure} (failed)`] : overLimits(selection, mode))).filter((found) => found.length > 0);
  return over.length === 0 ? `all ${selections.length}` : `**${selections.length - over.length} of ${selections.length}** (${[...new Set(over.flat().map((found) => found.split(' ')[0]))].join(', ')} over)`;
}

export function firstSelectionReport(result) {
  const summary = [
    `| ${result.runs} fresh processes each | load (of it preparing), p50 | first selection, total: p50 / p95 / max | next ${result.warm}, total: p50 / p95 / max | stage 5, first: p50 / max | stage 5, next ${result.warm}: p50 / max | first selections within every hard limit | next ${result.warm} within |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | :--- | :--- |',
  ];
  const stages = [`| first selection, p50 (max) per stage, ms | ${STAGES.join(' | ')} |`, `| --- | ${STAGES.map(() => '---:').join(' | ')} |`];
  const timed = (selections) => selections.filter((selection) => !('failure' in selection));
  for (const row of result.rows) {
    const allFirsts = row.samples.map((sample) => sample.first);
    const allWarms = row.samples.flatMap((sample) => sample.warm);
    const [firsts, warms] = [timed(allFirsts), timed(allWarms)];
    const stage5 = (selections) => selections.map((selection) => selection.stages.resolve_skills);
    const preparing = row.prepare ? ` (${ms(median(row.samples.map((sample) => sample.preparation.durationMs)))})` : '';
    summary.push(
      `| ${name(row)} | ${ms(median(row.samples.map((sample) => sample.loadMs)))} ms${preparing} | ${spread(firsts.map((selection) => selection.totalMs))} ms | ${spread(warms.map((selection) => selection.totalMs))} ms | ${ms(median(stage5(firsts)))} / ${ms(Math.max(...stage5(firsts)))} ms | ${ms(median(stage5(warms)))} / ${ms(Math.max(...stage5(warms)))} ms | ${verdict(allFirsts, row.mode)} | ${verdict(allWarms, row.mode)} |`,
    );
    const cell = (stage) => {
      const durations = firsts.map((selection) => selection.stages[stage]).filter((duration) => duration !== undefined);
      return durations.length === 0 ? '–' : `${ms(median(durations))} (${ms(Math.max(...durations))})`;
    };
    stages.push(`| ${name(row)} | ${STAGES.map(cell).join(' | ')} |`);
  }
  return `${summary.join('\n')}\n\n${stages.join('\n')}`;
}

/** The section as it stands in RESULTS.md: heading, what was measured, the tables. */
export function firstSelectionSection(result) {
  return `${HEADING}

The first selection after a module loads, beside the ones after it (docs/spec/selection.md §7.4):
${result.runs} fresh processes per row (\`bench/select/first-selection-bench.mjs\`), each loading the
fitness world through a \`ModuleLoader\` as the decision service does (signed, approved, verified,
with \`prepareSelection\`), then making one selection and ${result.warm} more, a different request in
each process; times are the trace's own (\`total_duration_ms\`, \`stages.*.duration_ms\`), without
contract checking (tests only). A fresh process is the coldest case: nothing of the engine ran
before the load. The hard limits are §7's (150 ms a deterministic selection, 600 ms one with a
model; per stage the reference's, e.g. 5 ms for stage 5). The last row loads without preparing,
as hosts did before: its first selection resolves and compiles what the others prepared at load.

${firstSelectionReport(result)}`;
}

/** Replaces the section in RESULTS.md (or adds it at the end of the selection section); returns the file's path. */
export function writeFirstSelectionSection(result) {
  const report = readFileSync(RESULTS, 'utf8');
  const section = `${firstSelectionSection(result)}\n\n`;
  const start = report.indexOf(HEADING);
  const next = report.indexOf('\n## ', start === -1 ? report.indexOf('## Selections: the ADE cycle') + 1 : start);
  if (next === -1) throw new Error(`${RESULTS} has no section after the selections: regenerate it with npm run bench`);
  writeFileSync(RESULTS, `${report.slice(0, start === -1 ? next + 1 : start)}${section}${report.slice(next + 1)}`);
  return RESULTS;
}
