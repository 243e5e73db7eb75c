/**
 * A decision as a person reads it first (`npm start`): the status and the rule that decided it
 * with its reason, the work frame the agent must follow, the matched rules as a short table,
 * and where the full record is. The per-predicate traces and the rest of `decision_metadata`
 * stay in the record; `npm start -- --json` prints the whole response.
 */

/**
 * @param {any} decision a `/v1/decide` response: `{ status, work_frame, decision_metadata }`
 * @param {{ record: string, response: string }} where where the full record and the full response are
 * @returns {string} the summary, lines ending in newlines
 */
export function decisionSummary(decision, where) {
  const metadata = decision.decision_metadata;
  const aggregation = metadata.aggregation_outcome;
  const outcomes = metadata.matched_rule_outcomes;
  const winner = outcomes.find((/** @type {any} */ rule) => rule.rule_id === aggregation.winning_rule);
  const lines = [
    `Decision: ${decision.status}${aggregation.winning_rule === null ? ` (${aggregation.basis})` : `, by rule ${aggregation.winning_rule} (${aggregation.tier})`}`,
    ...(winner === undefined ? [] : [`  reason: ${winner.reason}`]),
    ...(aggregation.error_floor_applied ? ['  a predicate failed, so the status is at least YELLOW (error floor)'] : []),
    '',
    'Work frame (what the agent must do now):',
    ...table(Object.entries(decision.work_frame).map(([field, value]) => [field, shown(value)]), { indent: '  ' }),
    '',
    `Matched rules (${outcomes.length}; ${aggregation.mode}):`,
    ...(outcomes.length === 0
      ? ['  none']
      : table([['rule', 'outcome', 'tier', 'reason'], ...outcomes.map((/** @type {any} */ rule) => [rule.rule_id, rule.outcome, rule.severity, rule.suppressed_by === null ? rule.reason : `(suppressed by ${rule.suppressed_by}) ${rule.reason}`])], { indent: '  ' })),
    ...problems(metadata),
    '',
    `Module:  ${metadata.module.org}/${metadata.module.domain}@${metadata.module.version}, action ${metadata.module.action}, ${metadata.module.module_hash}`,
    `Record:  ${where.record}`,
    `Full response (every rule's predicate trace): ${where.response}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Predicates, derivations or context fields that failed: the reader must see them. */
function problems(/** @type {any} */ metadata) {
  const counted = [
    [metadata.errored_predicates?.length ?? 0, 'predicate(s) failed'],
    [metadata.errored_derivations?.length ?? 0, 'derivation(s) failed'],
    [metadata.context_errors?.length ?? 0, 'context error(s)'],
  ].filter(([count]) => Number(count) > 0);
  return counted.length === 0 ? [] : ['', `Problems: ${counted.map(([count, what]) => `${count} ${what}`).join(', ')} (see the full response)`];
}

/** A work frame value on one line: lists comma-separated, an empty list as `—`. */
function shown(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.join(', ');
  return value === null || value === undefined ? '—' : String(value);
}

/** Rows as aligned columns (the last column as it is). */
function table(/** @type {string[][]} */ rows, { indent = '' } = {}) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => `${indent}${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}`.trimEnd());
}
