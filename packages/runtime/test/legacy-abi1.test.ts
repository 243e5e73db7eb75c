/**
 * docs/spec/adjudication.md §6: a bundle built before rule outcomes existed (ABI 1) keeps loading and decides
 * exactly as before: the ABI 1 engine mapped a match of a RED-graded rule to RED, any
 * other match to YELLOW, and nothing matched to GREEN. The fixture is a hand-kept legacy
 * bundle; every combination of its four rules is checked against that old mapping.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decide, DirectoryModuleStore, ModuleLoader, type LoadedModule, type Status } from '@adec/runtime';
import { repoPath } from '../../../test/support/repo.js';
import { publish, testKeys, type TestBundle } from '../../../test/support/runtime.js';

const FIXTURE = repoPath('packages', 'runtime', 'test', 'fixtures', 'legacy-abi1');
const LEGACY_STATUS: Readonly<Record<string, 'RED' | 'YELLOW'>> = {
  missing_receipt: 'YELLOW',
  amount_over_limit: 'RED',
  repeat_refund: 'YELLOW',
  account_frozen: 'RED',
};

/** The ABI 1 engine: severity-as-outcome, RED if any RED rule fired, else YELLOW, else GREEN. */
function legacyStatus(matched: readonly string[]): Status {
  if (matched.some((id) => LEGACY_STATUS[id] === 'RED')) return 'RED';
  return matched.length > 0 ? 'YELLOW' : 'GREEN';
}

let loader: ModuleLoader;
let module: LoadedModule;

beforeAll(async () => {
  const manifestJson = readFileSync(join(FIXTURE, 'manifest.json'), 'utf8');
  const legacy: TestBundle = { bundle: readFileSync(join(FIXTURE, 'bundle.js'), 'utf8'), manifestJson, manifest: JSON.parse(manifestJson) as Record<string, unknown> };
  const keys = testKeys();
  const root = mkdtempSync(join(tmpdir(), 'adec-legacy-'));
  publish(legacy, root, keys);
  loader = new ModuleLoader({ store: new DirectoryModuleStore(root), trust: keys.trust, sandbox: { isolation: 'in-process' } });
  const lookup = await loader.get({ org: 'acme', domain: 'payments.refunds', action: 'issue_refund', version: '0.9.2' });
  if (!lookup.ok) throw new Error(lookup.error.message);
  module = lookup.module;
});
// eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
afterAll(() => loader?.close());

const COMBINATIONS = Array.from({ length: 16 }, (_, bits) => ({
  amount: bits & 1 ? 2500 : 40,
  has_receipt: !(bits & 2),
  refunds_last_30d: bits & 4 ? 3 : 0,
  account_frozen: Boolean(bits & 8),
}));

function firing(context: (typeof COMBINATIONS)[number]): string[] {
  return [
    ...(context.has_receipt ? [] : ['missing_receipt']),
    ...(context.amount > 1000 ? ['amount_over_limit'] : []),
    ...(context.refunds_last_30d >= 2 ? ['repeat_refund'] : []),
    ...(context.account_frozen ? ['account_frozen'] : []),
  ];
}

describe('a legacy ABI 1 bundle', () => {
  test('loads through the verified loader and reports ABI 1', () => {
    expect(module.metadata.abiVersion).toBe(1);
    // The shim: outcome = the legacy status; RED → t1, anything else → t2; t1 rules first.
    expect(module.metadata.actions.get('issue_refund')!.rules.map((r) => [r.id, r.outcome, r.severity])).toEqual([
      ['amount_over_limit', 'RED', 't1'],
      ['account_frozen', 'RED', 't1'],
      ['missing_receipt', 'YELLOW', 't2'],
      ['repeat_refund', 'YELLOW', 't2'],
    ]);
  });

  test.each(COMBINATIONS.map((context) => [firing(context).join(' + ') || 'nothing', context] as const))('decides as under ABI 1 when %s fires', async (_name, context) => {
    const result = await decide(module, { action: 'issue_refund', context });
    if (!result.ok) throw new Error(result.error.message);
    const { decision } = result;
    const expected = firing(context);
    expect(decision.status).toBe(legacyStatus(expected));
    expect([...decision.decision_metadata.matched_rules].sort()).toEqual([...expected].sort());
    expect(decision.decision_metadata.module.abi_version).toBe(1);
    const winner = decision.decision_metadata.aggregation_outcome.winning_rule;
    expect(winner === null ? 'GREEN' : LEGACY_STATUS[winner]).toBe(decision.status);
  });
});
