/**
 * `adec select <bundle> --request file|-`: the whole ADE cycle from a real, signed and approved
 * bundle of a world of scenarios only, in a real sandbox, printed as the DecisionResponse of docs/spec/selection.md §3.9.
 */
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { main } from '@adec/cli';
import type { AddressedTrace, DecisionResponse } from '@adec/engine';
import { runCli } from './run-cli.js';
import { asTestBundle, buildFixture, publish, testKeys } from '../../../test/support/runtime.js';

let workspace: string;
let bundleDir: string;

const HIIT = { action_id: 'hiit-20', type: 'workout_session', session_name: 'HIIT Blast', session_type: 'hiit', intensity: 'high', duration_minutes: 20 };
const REST = { action_id: 'rest', type: 'rest_day', session_name: 'Active recovery walk' };
const request = (extra: Record<string, unknown> = {}) => ({ scenario: 'fitness_daily_session', signals: { sessions_last_7d: 6, rest_days_last_7d: 0 }, actions: [HIIT, REST], ...extra });

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'adec-select-'));
  const keys = testKeys();
  bundleDir = publish(asTestBundle(await buildFixture('examples/fitness')), join(workspace, 'store'), keys);
  writeFileSync(join(workspace, 'ci.pub.pem'), createPublicKey(keys.signer).export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(workspace, 'ops.pub.pem'), createPublicKey(keys.approver).export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(workspace, 'trust.json'), JSON.stringify({ signing_keys: ['ci.pub.pem'], approval_keys: ['ops.pub.pem'] }));
  writeFileSync(join(workspace, 'rest.json'), JSON.stringify(request()));
  writeFileSync(join(workspace, 'none.json'), JSON.stringify(request({ actions: [HIIT] })));
  writeFileSync(join(workspace, 'typo.json'), JSON.stringify(request({ signals: { sesions_last_7d: 6 } })));
  writeFileSync(join(workspace, 'list.json'), '[]');
});

const DECISION_ID = '3f2b8c1e-5a7d-4e90-b1c2-9d8e7f6a5b4c';

const selectArgs = (file: string, ...rest: string[]) => ['select', bundleDir, '--request', file, '--isolation', 'in-process', ...rest];

describe('adec select', () => {
  test('prints the DecisionResponse: the rest-day guardrail forces the rest day, its template explains it', async () => {
    const run = await runCli(selectArgs('rest.json', '--decision-id', DECISION_ID, '--timestamp', '2026-03-01T09:00:00Z'), workspace);
    expect(run.code).toBe(0);
    const response = JSON.parse(run.stdout) as DecisionResponse;
    expect(response.decision).toMatchObject({ decision_id: DECISION_ID, selected_action: 'rest', payload: { rationale: 'Great momentum! Active recovery walk will help you maintain your streak.' } });
    expect(response.meta).toMatchObject({ timestamp: '2026-03-01T09:00:00.000Z' });
    // The same decision id and timestamp give the same answer (timings aside): a replay.
    const again = JSON.parse((await runCli(selectArgs('rest.json', '--decision-id', DECISION_ID, '--timestamp', '2026-03-01T09:00:00Z'), workspace)).stdout) as DecisionResponse;
    expect({ ...again, meta: { ...again.meta, total_duration_ms: 0 } }).toEqual({ ...response, meta: { ...response.meta, total_duration_ms: 0 } });
  });

  test('reads the request from standard input, verifies against a trust file, and prints the trace with --trace', async () => {
    let stdout = '';
    let stderr = '';
    const code = await main(['select', bundleDir, '--request', '-', '--trust', 'trust.json', '--trace'], {
      cwd: workspace,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      readStdin: async () => Buffer.from(JSON.stringify(request())),
    });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const trace = JSON.parse(stdout) as AddressedTrace;
    expect(trace.stages.evaluate_guardrails.output.EligibleActions.rejected).toEqual([{ action_id: 'hiit-20', violated_guardrails: ['GR-REST-MIN'] }]);
    expect(trace.content_address).toMatch(/^sha256:/);
  });

  test('no eligible candidate: the trace is printed, the reason named, exit 1', async () => {
    const run = await runCli(selectArgs('none.json'), workspace);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'no_eligible_actions', final_decision: null });
    expect(run.stderr).toMatch(/NO_ELIGIBLE_ACTIONS: no candidate passed every guardrail/);
  });

  test.each([
    ['a misspelled signal', 'typo.json', /INVALID_REQUEST: .*\n {2}signals\.sesions_last_7d: `sesions_last_7d` is not a signal of scenario `fitness_daily_session`/],
    ['a request that is not an object', 'list.json', /the request must be a JSON object/],
    ['a missing file', 'nope.json', /cannot read --request nope.json/],
  ])('%s is refused with exit 1 and a message naming it', async (_, file, message) => {
    const run = await runCli(selectArgs(file), workspace);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
  });

  test('a bad --timestamp is a usage error', async () => {
    const run = await runCli(selectArgs('rest.json', '--timestamp', 'yesterday'), workspace);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/invalid --timestamp `yesterday`/);
  });

  // A decision id is a UUID v4, as the service makes them: anything else would give a response
  // that breaks its contract (and could collide with a client's request id).
  test.each([
    ['a label', 'd-7'],
    ['a UUID of another version', '3f2b8c1e-5a7d-1e90-b1c2-9d8e7f6a5b4c'],
    ['a UUID with the wrong variant', '3f2b8c1e-5a7d-4e90-71c2-9d8e7f6a5b4c'],
    ['a UUID without dashes', '3f2b8c1e5a7d4e90b1c29d8e7f6a5b4c'],
    ['a UUID with a trailing space', `${DECISION_ID} `],
    ['the empty string', ''],
  ])('--decision-id with %s is a usage error', async (_, id) => {
    const run = await runCli(selectArgs('rest.json', '--decision-id', id), workspace);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`invalid --decision-id \`${id}\`: a decision id is a UUID v4`);
  });
});
