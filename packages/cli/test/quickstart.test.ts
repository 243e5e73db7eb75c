/**
 * `npm start` (scripts/quickstart.mjs) on a fresh directory: the decision is printed last as a
 * summary a newcomer reads (status, winning rule and reason, work frame, matched rules, where
 * the record is), the whole response kept in decision.json and printed only with `--json`
 * (test/package/install-from-tarballs.test.ts runs that against an install from the tarballs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decisionSummary } from '../../../scripts/decision-summary.mjs';
import { repoPath } from '../../../test/support/repo.js';

const dir = mkdtempSync(join(tmpdir(), 'adec-quickstart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start', () => {
  it('builds, signs, approves, deploys, serves and prints one decision in brief', () => {
    const run = spawnSync(process.execPath, [repoPath('scripts/quickstart.mjs'), '--dir', join(dir, 'demo')], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/▶ adec deploy[^\n]*\ndeployed acme\/hr\.benefits@1\.4\.0 \(world benefits\) sha256:[0-9a-f]{64} → /);
    expect(run.stderr).toContain('all 1 chains verify');

    const decision = JSON.parse(readFileSync(join(dir, 'demo/decision.json'), 'utf8')) as { decision_metadata: { request_id: string } };
    const id = decision.decision_metadata.request_id;
    expect(run.stdout).toBe(`\n${decisionSummary(decision, {
      record: `decision ${id} in demo/audit.db, hash-chained (GET /v1/decisions/${id} while adec serve runs)`,
      response: 'demo/decision.json (or `npm start -- --json`)',
    })}`);
    // What the summary says, as a newcomer reads it; the traces stay out of it.
    expect(run.stdout).toContain('Decision: YELLOW, by rule student_extension (t2)\n  reason: Dependent is 27; full-time student status needs proof\n');
    expect(run.stdout).toMatch(/Work frame \(what the agent must do now\):\n {2}mode +review\n {2}next_action +gather_evidence_and_retry\n {2}allowed_actions +request_documents\n {2}forbidden_actions +add_dependent\n/);
    expect(run.stdout).toMatch(/Matched rules \(1; winner_takes_all\):\n {2}rule +outcome +tier +reason\n {2}student_extension +YELLOW +t2 +Dependent is 27; full-time student status needs proof\n/);
    expect(run.stdout).toContain(`Record:  decision ${id} in demo/audit.db`);
    expect(run.stdout).not.toContain('predicate_traces');
    expect(run.stdout.split('\n').length).toBeLessThan(30);
  }, 150_000);
});

describe('the decision summary', () => {
  const metadata = {
    matched_rule_outcomes: [
      { rule_id: 'over_age', outcome: 'RED', severity: 't1', reason: 'Children aged 27 are not eligible', suppressed_by: null },
      { rule_id: 'student', outcome: 'YELLOW', severity: 't2', reason: 'Student status needs proof', suppressed_by: 'over_age' },
    ],
    aggregation_outcome: { mode: 'winner_takes_all', status: 'RED', winning_rule: 'over_age', tier: 't1', basis: 'RULE_MATCH', error_floor_applied: false },
    errored_predicates: [{ rule_id: 'x' }],
    errored_derivations: [],
    context_errors: [],
    request_id: 'r-1',
    module: { org: 'acme', domain: 'hr.benefits', version: '1.4.0', action: 'add_dependent', module_hash: 'sha256:ab' },
  };
  const decision = { status: 'RED', work_frame: { mode: 'blocked', allowed_actions: [], next_human_owner: null }, decision_metadata: metadata };

  it('shows suppressed rules, empty fields and failed predicates', () => {
    expect(decisionSummary(decision, { record: 'R', response: 'F' })).toBe(
      [
        'Decision: RED, by rule over_age (t1)',
        '  reason: Children aged 27 are not eligible',
        '',
        'Work frame (what the agent must do now):',
        '  mode              blocked',
        '  allowed_actions   —',
        '  next_human_owner  —',
        '',
        'Matched rules (2; winner_takes_all):',
        '  rule      outcome  tier  reason',
        '  over_age  RED      t1    Children aged 27 are not eligible',
        '  student   YELLOW   t2    (suppressed by over_age) Student status needs proof',
        '',
        'Problems: 1 predicate(s) failed (see the full response)',
        '',
        'Module:  acme/hr.benefits@1.4.0, action add_dependent, sha256:ab',
        'Record:  R',
        "Full response (every rule's predicate trace): F",
        '',
      ].join('\n'),
    );
  });

  it('names the basis when no rule won', () => {
    const none = { ...decision, status: 'GREEN', decision_metadata: { ...metadata, matched_rule_outcomes: [], errored_predicates: [], aggregation_outcome: { ...metadata.aggregation_outcome, winning_rule: null, basis: 'NO_RULE_MATCH' } } };
    const summary = decisionSummary(none, { record: 'R', response: 'F' });
    expect(summary).toMatch(/^Decision: GREEN \(NO_RULE_MATCH\)\n\nWork frame/);
    expect(summary).toContain('Matched rules (0; winner_takes_all):\n  none\n');
  });
});
