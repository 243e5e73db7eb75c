/**
 * `adec eval <bundle> --action A --context file|-`: one decision as JSON, from a real bundle
 * on disk, in a real sandbox.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { main } from '@adec/cli';
import type { Decision } from '@adec/runtime';
import { runCli } from './run-cli.js';
import { asTestBundle, buildFixture, publish, testKeys } from '../../../test/support/runtime.js';

const LAUNCHER = fileURLToPath(new URL('../bin/adec.js', import.meta.url));

let workspace: string;
let bundleDir: string;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'adec-eval-'));
  const keys = testKeys();
  bundleDir = publish(asTestBundle(await buildFixture('examples/benefits')), join(workspace, 'store'), keys);
  writeFileSync(join(workspace, 'child.json'), JSON.stringify({ relationship: 'child', dependent_age: 27, documents: ['birth_certificate'] }));
  writeFileSync(join(workspace, 'incomplete.json'), JSON.stringify({ relationship: 'cousin' }));
  writeFileSync(join(workspace, 'broken.json'), '{ "relationship": ');
  writeFileSync(join(workspace, 'untrusting.json'), JSON.stringify({ signing_keys: [], approval_keys: [] }));
});

const evalArgs = (context: string, ...rest: string[]) => ['eval', bundleDir, '--action', 'add_dependent', '--context', context, '--isolation', 'in-process', ...rest];

describe('adec eval', () => {
  test('prints the decision as JSON, with system values given for a replay', async () => {
    const run = await runCli(evalArgs('child.json', '--request-time', '2026-03-01T09:00:00Z', '--request-id', 'replay-7'), workspace);
    expect(run.code).toBe(0);
    const decision = JSON.parse(run.stdout) as Decision;
    expect(decision.status).toBe('RED');
    expect(decision.decision_metadata.aggregation_outcome.winning_rule).toBe('ineligible_over_age');
    expect(decision.decision_metadata).toMatchObject({ request_id: 'replay-7', request_time: '2026-03-01T09:00:00.000Z' });
    expect(decision.work_frame.next_human_owner).toBe('benefits-escalations');
    expect(run.stderr).toMatch(/not verified against a trust configuration/);
  });

  test('reads the context from standard input with `-`, in a supervised sandbox process', async () => {
    let stdout = '';
    const code = await main(['eval', bundleDir, '--action', 'add_dependent', '--context', '-'], {
      cwd: workspace,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      readStdin: async () => Buffer.from(JSON.stringify({ relationship: 'stepchild', dependent_age: 8 })),
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'YELLOW', decision_metadata: { aggregation_outcome: { winning_rule: 'missing_birth_certificate' } } });
  });

  test('an invalid context is still a decision: YELLOW, gather evidence, each attribute named', async () => {
    const run = await runCli(evalArgs('incomplete.json'), workspace);
    expect(run.code).toBe(0);
    const decision = JSON.parse(run.stdout) as Decision;
    expect(decision.status).toBe('YELLOW');
    expect(decision.work_frame).toMatchObject({ next_action: 'gather_evidence_and_retry', missing_evidence: ['dependent_age', 'relationship'] });
    expect(decision.decision_metadata.context_errors).toEqual([
      { attribute: 'dependent_age', path: 'dependent_age', message: '`dependent_age` is required' },
      { attribute: 'relationship', path: 'relationship', message: 'expected one of "child", "stepchild", "spouse", "domestic_partner", found string "cousin"' },
    ]);
    expect(decision.decision_metadata.predicate_traces).toEqual([]);
  });

  test('verifies with --trust, and refuses a bundle the trust file does not cover', async () => {
    const run = await runCli(evalArgs('child.json', '--trust', 'untrusting.json'), workspace);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^adec eval: .*signing_keys/m);
  });

  test.each([
    ['a context that is not JSON', ['broken.json'], /the context in broken.json is not JSON: .* at byte \d+ \(line \d+, column \d+\)/],
    ['a context file that does not exist', ['missing.json'], /cannot read --context missing.json/],
  ])('%s exits 1 with the problem named', async (_name, [context], message) => {
    const run = await runCli(evalArgs(context!), workspace);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  test('an unknown action exits 1 and lists the actions', async () => {
    const run = await runCli(['eval', bundleDir, '--action', 'add_pet', '--context', 'child.json', '--isolation', 'in-process'], workspace);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/UNKNOWN_ACTION: module acme\/hr\.benefits@1\.4\.0 has no action `add_pet` \(actions: add_dependent, change_plan, submit_claim\)/);
  });

  test.each([
    [['eval', 'b', '--context', 'c.json'], /missing --action/],
    [['eval', 'b', '--action', 'a', '--context', 'c.json', '--request-time', 'yesterday'], /invalid --request-time `yesterday`/],
    [['eval', 'b', '--action', 'a', '--context', 'c.json', '--isolation', 'none'], /invalid --isolation `none`/],
  ])('usage errors exit 2: %j', async (argv, message) => {
    const run = await runCli(argv, workspace);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('through the installed launcher: stdin, exit codes and output reach the caller of `adec eval`', () => {
    // The launcher re-runs eval in a Node process started with --no-node-snapshot (isolated-vm).
    const run = (args: string[], input: string) => spawnSync(LAUNCHER, args, { cwd: workspace, input, encoding: 'utf8', timeout: 30_000 });
    const decided = run(['eval', bundleDir, '--action', 'add_dependent', '--context', '-'], JSON.stringify({ relationship: 'child', dependent_age: 27, documents: [] }));
    expect(decided.status).toBe(0);
    expect(JSON.parse(decided.stdout)).toMatchObject({ status: 'RED', decision_metadata: { aggregation_outcome: { winning_rule: 'ineligible_over_age' } } });
    const unknown = run(['eval', bundleDir, '--action', 'add_pet', '--context', '-'], '{}');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/UNKNOWN_ACTION/);
  });

  test('an endless standard input is refused once it is over the request limit, not read to its end', async () => {
    const child = spawn(LAUNCHER, ['eval', bundleDir, '--action', 'add_dependent', '--context', '-'], { cwd: workspace });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => {}); // EPIPE once the CLI stops reading: expected.
    const block = Buffer.alloc(64 * 1024, 0x20);
    const feed = () => {
      while (child.stdin.writable && child.stdin.write(block));
    };
    child.stdin.on('drain', feed);
    feed();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/the context in standard input is over a request limit/);
  }, 30_000);
});

