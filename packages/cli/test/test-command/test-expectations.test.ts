/**
 * What an adjudication test can expect besides the status: the winning rule's reason (its text,
 * or the decision's basis as a reason code), work_frame fields and the missing evidence. Each
 * passes when the decision gives exactly that, fails showing expected against actual, and is
 * checked against the action when the world is checked, with a did-you-mean.
 */
import { describe, expect, test } from 'vitest';
import { runCli, tempWorkspace } from '../run-cli.js';

const WORLD = `world {
  org     "acme"
  domain  "support.refunds"
  version "1.0.0"
}

action refund {
  context {
    supplied amount:   int(0..)
    supplied order_id: string
  }

  rule large_refund {
    outcome  YELLOW
    severity t2
    when     amount > 500 and order_id != ""
    reason   "A refund of {amount} needs a second look"
  }

  on YELLOW { next_human_owner "refund-desk" }
}
`;

const workspace = (tests: string) => tempWorkspace({ 'w/world.adec': WORLD, 'w/tests.adec': tests });

describe('expectations that hold', () => {
  test('reason text, reason code, work_frame fields and missing evidence pass', async () => {
    const run = await runCli(
      ['test', 'w'],
      workspace(`test "a large refund goes to the refund desk" {
  action  refund
  context { amount: 900, order_id: "o-1" }
  expect  YELLOW by large_refund
  expect  reason "A refund of 900 needs a second look"
  expect  work_frame { next_human_owner: "refund-desk", next_action: "route_to_review" }
}

test "a small refund matches nothing" {
  action  refund
  context { amount: 5, order_id: "o-2" }
  expect  GREEN
  expect  reason NO_RULE_MATCH
}

test "a refund without its order asks for both, in any order" {
  action  refund
  context { }
  expect  YELLOW
  expect  reason CONTEXT_INVALID
  expect  missing_evidence [order_id, amount]
  expect  work_frame { next_action: "gather_evidence_and_retry" }
}
`),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\n3 passed, 0 failed\n$/);
  });
});

describe('expectations that fail', () => {
  test('each one that does not hold is shown as expected against actual, after the status', async () => {
    const run = await runCli(
      ['test', 'w'],
      workspace(`test "a large refund" {
  action  refund
  context { amount: 900, order_id: "o-1" }
  expect  YELLOW by large_refund
  expect  reason "A refund of 901 needs a second look"
  expect  work_frame { next_human_owner: "refund-desk", mode: "blocked" }
}

test "a refund without its order" {
  action  refund
  context { amount: 5 }
  expect  YELLOW
  expect  reason NO_RULE_MATCH
  expect  missing_evidence [order_id]
}
`),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '✗ a large refund (w/tests.adec:1)',
        '    expected  YELLOW by large_refund',
        '    actual    YELLOW by large_refund',
        '    expected  reason "A refund of 901 needs a second look"',
        '    actual    reason "A refund of 900 needs a second look"',
        '    expected  work_frame.mode "blocked"',
        '    actual    work_frame.mode "review"',
        '    matched rules',
        '      large_refund  YELLOW      t2  "A refund of 900 needs a second look"',
        '',
        '✗ a refund without its order (w/tests.adec:9)',
        '    expected  YELLOW',
        '    actual    YELLOW (CONTEXT_INVALID)',
        '    expected  reason NO_RULE_MATCH',
        '    actual    reason CONTEXT_INVALID',
        '    matched rules: none',
      ].join('\n'),
    );
    expect(run.stdout).toMatch(/\n0 passed, 2 failed\n$/);
  });

  test('--format json gives the expected and actual facts and which expectations failed', async () => {
    const run = await runCli(
      ['test', 'w', '--format', 'json'],
      workspace(`test "a large refund" {
  action  refund
  context { amount: 900, order_id: "o-1" }
  expect  YELLOW by large_refund
  expect  reason "A refund of 901 needs a second look"
}
`),
    );
    expect(run.code).toBe(1);
    const [outcome] = (JSON.parse(run.stdout) as { tests: unknown[] }).tests;
    expect(outcome).toMatchObject({
      passed: false,
      expected: { status: 'YELLOW', rule: 'large_refund', reason: 'A refund of 901 needs a second look' },
      actual: { status: 'YELLOW', rule: 'large_refund', reason: 'A refund of 900 needs a second look' },
      failed: ['reason'],
    });
  });
});

describe('expectations checked with the world', () => {
  test('unknown reason codes, work_frame fields and attributes, and reasons a rule never gives, are errors', async () => {
    const run = await runCli(
      ['check', 'w'],
      workspace(`test "a large refund" {
  action  refund
  context { amount: 900, order_id: "o-1" }
  expect  YELLOW by large_refund
  expect  reason "Refunds need a second look"
  expect  work_frame { next_human: "refund-desk" }
}

test "a refund without its order" {
  action  refund
  context { amount: 5 }
  expect  YELLOW
  expect  reason CONTEXT_INVALD
  expect  missing_evidence [order]
}
`),
    );
    expect(run.code).toBe(1);
    const reported = [...run.stderr.matchAll(/error (ADEC\d+): (.*)\n/g)].map(([, code, message]) => `${code}: ${message}`);
    expect(reported).toEqual([
      'ADEC4026: test `a large refund` expects reason "Refunds need a second look", which rule `large_refund` never gives',
      'ADEC2013: unknown work_frame field `next_human`',
      'ADEC2030: unknown reason code `CONTEXT_INVALD`',
      'ADEC2031: test expects missing evidence `order`, which is not a supplied attribute of action `refund`',
    ]);
    expect(run.stderr).toContain('= note: its reason reads "A refund of {…} needs a second look"');
    expect(run.stderr).toContain('= help: did you mean `next_human_owner`?');
    expect(run.stderr).toContain('= help: did you mean `CONTEXT_INVALID`?');
    expect(run.stderr).toContain('= help: did you mean `order_id`?');
  });
});
