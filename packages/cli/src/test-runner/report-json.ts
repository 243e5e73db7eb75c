/**
 * The `--format json` report of a test run: one object for CI. Every test with its expected
 * and actual result; a failed test also carries the decision or selection that explains it
 * (and, for an adjudication, which of its expectations did not hold).
 */
import type { DiagnosticJson } from '@adec/diagnostics';
import type { TestRun } from './run-tests.js';
import type { TestOutcome } from './test-outcome.js';

/** `diagnostics`: the world's warnings (a world with errors never gets this far). */
export function testRunJson(run: TestRun, diagnostics: readonly DiagnosticJson[]) {
  const passed = run.outcomes.filter((o) => o.passed).length;
  return {
    ok: passed === run.outcomes.length,
    diagnostics,
    tests: run.outcomes.map(outcomeJson),
    coverage: run.coverage,
    filter: run.filter,
    summary: { passed, failed: run.outcomes.length - passed },
  };
}

function outcomeJson(outcome: TestOutcome) {
  const { name, kind, file, line, passed, expected, actual, error } = outcome;
  const subject = outcome.kind === 'adjudication' ? { action: outcome.action } : { scenario: outcome.scenario };
  const explanation = passed ? {} : outcome.kind === 'adjudication' ? { failed: outcome.failed, decision: outcome.decision } : { selection: outcome.selection, ...skillExplanation(outcome) };
  return { name, kind, file, line, ...subject, passed, expected, actual, error, ...explanation };
}

/** A selection test that expected the skill's part: what did not hold, and how the skill ran. */
function skillExplanation(outcome: Extract<TestOutcome, { kind: 'selection' }>) {
  return outcome.skillMismatches.length === 0 ? {} : { skill_failed: outcome.skillMismatches, skill: outcome.skill };
}
