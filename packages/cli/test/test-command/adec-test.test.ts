/**
 * `adec test <world>`: the examples pass with full rule coverage; a failing test exits 1 and
 * shows what differs and why; uncovered rules and quiet guardrails are listed; `--format json`
 * gives CI one object. Runs the CLI in process, as a user in the repository would.
 */
import { describe, expect, test } from 'vitest';
import { runCli, tempWorkspace } from '../run-cli.js';
import { REPO_ROOT } from '../../../../test/support/repo.js';

const WORLD_HEADER = `world {
  org     "acme"
  domain  "hr.benefits"
  version "1.0.0"
}

context {
  supplied relationship:  "child" | "spouse"
  supplied dependent_age: int
}

action add_dependent {
  rule child_over_age {
    outcome  RED
    severity t1
    when     relationship == "child" and dependent_age >= 26
    reason   "Children aged {dependent_age} are not eligible"
  }
  rule spouse_review {
    outcome  YELLOW
    severity t2
    when     relationship == "spouse"
    reason   "Spouses are reviewed"
  }
}

scenario outing {
  version "1.0.0"
  signals {
    tired: bool = false
    rain:  bool = false
  }
  action_type walk { minutes: int }
  action_type rest { }
  guardrail "GR-TIRED" "Rest when tired" {
    when  tired
    force rest
  }
  guardrail "GR-RAIN" "No long walks in the rain" {
    when rain
    cap  action.minutes 20
  }
  objective length weight 1 = (action.minutes ?? 0) / 60
  tie_break action.minutes desc
}
`;

const WALKS = '[ { action_id: "w30", type: "walk", minutes: 30 }, { action_id: "w60", type: "walk", minutes: 60 }, { action_id: "r", type: "rest" } ]';

function worldWithTests(tests: string): string {
  return tempWorkspace({ 'w/world.adec': WORLD_HEADER, 'w/tests.adec': tests });
}

describe('the examples', () => {
  test('examples/benefits: every test passes with 100% rule coverage', async () => {
    const run = await runCli(['test', 'examples/benefits'], REPO_ROOT);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('✓ a 27-year-old non-student child is blocked (examples/benefits/add_dependent.tests.adec:15)\n');
    expect(run.stdout).not.toContain('✗');
    expect(run.stdout).toMatch(/\ncoverage\n {2}rule coverage: 25\/25 \(100%\)\n\n30 passed, 0 failed\n$/);
  });

  test('examples/fitness: every selection test passes, 100% rule coverage, every guardrail fired', async () => {
    const run = await runCli(['test', 'examples/fitness'], REPO_ROOT);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        '✓ a week without rest forces the rest day (examples/fitness/tests.adec:4)',
        '✓ a new user is offered the hard session (examples/fitness/tests.adec:15)',
        '✓ an engaged user keeps a steady pace, the shorter session first (examples/fitness/tests.adec:25)',
        '✓ the intensity cap blocks a third hard session in a row (examples/fitness/tests.adec:36)',
        '✓ only hard sessions after two hard days leaves nothing eligible (examples/fitness/tests.adec:46)',
        '',
        'coverage',
        '  rule coverage: no rules in the world',
        '  guardrails fired: 2/2 (100%)',
        '  template coverage: 2/4 (50%)',
        '  templates never rendered',
        '    decision_rationale_template: recovery_needed, default',
        '',
        '5 passed, 0 failed',
        '',
      ].join('\n'),
    );
  });
});

describe('failures', () => {
  test('a wrong adjudication expectation exits 1 with a diff and the matched rules', async () => {
    const cwd = worldWithTests(`test "an adult child is reviewed" {
  action  add_dependent
  context { relationship: "child", dependent_age: 30 }
  expect  YELLOW by spouse_review
}
`);
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '✗ an adult child is reviewed (w/tests.adec:1)',
        '    expected  YELLOW by spouse_review',
        '    actual    RED by child_over_age',
        '    matched rules',
        '      child_over_age  RED         t1  "Children aged 30 are not eligible"',
        '',
      ].join('\n'),
    );
    expect(run.stdout).toMatch(/0 passed, 1 failed\n$/);
  });

  test('a test whose context the runtime would refuse is refused by the check, before anything runs', async () => {
    const cwd = worldWithTests(`test "an age is needed" {
  action  add_dependent
  context { relationship: "child" }
  expect  GREEN
}
`);
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('w/tests.adec:3:3: error ADEC4003: `dependent_age` is required in the context of test `an age is needed`');
    expect(run.stdout).not.toContain('CONTEXT_INVALID');
  });

  test('a wrong selection exits 1 with the ranking, its scores and the rejected actions', async () => {
    const cwd = worldWithTests(`test "the short walk" {
  scenario outing
  actions  ${WALKS}
  expect   selected "w30"
}

test "no long walk in the rain" {
  scenario outing
  signals  { rain: true }
  actions  ${WALKS}
  expect   NO_ELIGIBLE_ACTIONS
}
`);
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '✗ the short walk (w/tests.adec:1)',
        '    expected  selected "w30"',
        '    actual    selected "w60"',
        '    ranking',
        '      1. w60  1 = length 1  (keys 60)',
        '      2. w30  0.5 = length 0.5  (keys 30)',
        '      3. r    0 = length 0  (keys null)',
        '',
        '✗ no long walk in the rain (w/tests.adec:7)',
        '    expected  NO_ELIGIBLE_ACTIONS',
        '    actual    selected "r"',
        '    ranking',
        '      1. r  0 = length 0  (keys null)',
        '    rejected',
        '      w30  by GR-RAIN',
        '      w60  by GR-RAIN',
        '',
      ].join('\n'),
    );
  });

  test('a selection test the engine would refuse is refused by the check, before anything runs', async () => {
    const cwd = tempWorkspace({
      'w/world.adec': WORLD_HEADER.replace('rain:  bool = false', 'rain:  bool'),
      'w/tests.adec': `test "rain must be known" {
  scenario outing
  actions  ${WALKS}
  expect   selected "w60"
}
`,
    });
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('w/tests.adec:1:6: error ADEC4003: `rain` is required in the signals of test `rain must be known`');
    expect(run.stdout).not.toContain('INVALID_REQUEST');
  });
});

describe('coverage', () => {
  test('rules no test matched are listed per action, and guardrails that never fired as information', async () => {
    const cwd = worldWithTests(`test "an adult child is blocked" {
  action  add_dependent
  context { relationship: "child", dependent_age: 30 }
  expect  RED by child_over_age
}

test "the long walk" {
  scenario outing
  actions  ${WALKS}
  expect   selected "w60"
}
`);
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        'coverage',
        '  rule coverage: 1/2 (50%)',
        '  uncovered rules',
        '    add_dependent: spouse_review',
        '  guardrails fired: 0/2 (0%)',
        '  guardrails that never fired (information)',
        '    outing: GR-TIRED, GR-RAIN',
        '',
        '2 passed, 0 failed',
      ].join('\n'),
    );
  });
});

/** What these tests read of `adec test --format json`'s report. */
interface TestReport {
  readonly tests: readonly { readonly decision: { readonly decision_metadata: unknown } }[];
}

describe('--format json', () => {
  test('prints one object: each test with its result, coverage and the summary', async () => {
    const cwd = worldWithTests(`test "an adult child is blocked" {
  action  add_dependent
  context { relationship: "child", dependent_age: 30 }
  expect  RED by child_over_age
}

test "a spouse is allowed" {
  action  add_dependent
  context { relationship: "spouse", dependent_age: 30 }
  system  { request_time: "2026-03-01T09:00:00Z", request_id: "mine" }
  expect  GREEN
}

test "rest when tired" {
  scenario outing
  signals  { tired: true }
  actions  ${WALKS}
  expect   selected "r"
}
`);
    const run = await runCli(['test', 'w', '--format', 'json'], cwd);
    expect(run).toMatchObject({ code: 1, stderr: '' });
    const report = JSON.parse(run.stdout) as TestReport;
    expect(report).toMatchObject({
      ok: false,
      diagnostics: [],
      summary: { passed: 2, failed: 1 },
      coverage: {
        rules: { covered: 2, total: 2, percent: 100, uncovered: [] },
        guardrails: { covered: 1, total: 2, percent: 50, never_fired: [{ scenario: 'outing', guardrails: ['GR-RAIN'] }] },
      },
    });
    expect(report.tests[0]).toEqual({
      name: 'an adult child is blocked',
      kind: 'adjudication',
      file: 'w/tests.adec',
      line: 1,
      action: 'add_dependent',
      passed: true,
      expected: { status: 'RED', rule: 'child_over_age' },
      actual: { status: 'RED', rule: 'child_over_age' },
      error: null,
    });
    // A failed test carries the decision that explains it, with the system values of its test.
    expect(report.tests[1]).toMatchObject({ passed: false, actual: { status: 'YELLOW', rule: 'spouse_review' } });
    expect(report.tests[1]!.decision.decision_metadata).toMatchObject({ request_id: 'mine', request_time: '2026-03-01T09:00:00.000Z' });
    expect(report.tests[2]).toMatchObject({ kind: 'selection', scenario: 'outing', passed: true, actual: { status: 'SELECTED', selected_action: 'r' } });
  });

  test('tests without a system block decide at the fixed request time, with request ids by position', async () => {
    const cwd = worldWithTests(`test "one" {
  action  add_dependent
  context { relationship: "spouse", dependent_age: 30 }
  expect  GREEN
}
`);
    const report = JSON.parse((await runCli(['test', 'w', '--format', 'json'], cwd)).stdout) as TestReport;
    expect(report.tests[0]!.decision.decision_metadata).toMatchObject({ request_id: 'test:1', request_time: '2026-01-01T00:00:00.000Z' });
  });
});

describe('worlds that do not build, and usage errors', () => {
  test('a world with errors exits 1 with its diagnostics and runs nothing', async () => {
    const cwd = worldWithTests(`test "broken" {
  action  add_dependnt
  expect  GREEN
}
`);
    const run = await runCli(['test', 'w'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error ADEC2006');
    const json = await runCli(['test', 'w', '--format', 'json'], cwd);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, diagnostics: [{ code: 'ADEC2006' }] });
  });

  test.each([[['test']], [['test', 'w', 'extra']], [['test', 'w', '--format', 'xml']], [['test', 'w', '--bail']]])('%j is a usage error', async (argv) => {
    const run = await runCli(argv, REPO_ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: adec test <world>');
  });
});
