/**
 * The service's commands: `adec serve` refuses a bad configuration with every problem named by
 * its source (flag, environment, config file); `adec audit verify` walks a real store, exits 1
 * naming the first broken link of a tampered chain; `adec token` mints a token the service accepts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAuditStore } from '@adec/audit';
import { generateKey } from '@adec/runtime';
import { TokenVerifier } from '@adec/server';
import { resolveServeSettings } from '../src/serve/serve-settings.js';
import { runCli } from './run-cli.js';

const REQUIRED = { modules: 'modules', trust: 'trust.json', jwks: 'jwks.json', issuer: 'https://issuer', audience: 'adec' };

describe('adec serve settings', () => {
  it('takes flags over the environment over the config file, and resolves paths where they were given', () => {
    const resolved = resolveServeSettings({
      flags: { port: '9000' },
      env: { ADEC_PORT: '7000', ADEC_MAX_IN_FLIGHT: '64' },
      file: { name: 'conf/serve.json', values: { ...REQUIRED, port: 6000, 'max-in-flight': 32, 'rate-limit': 50 } },
      cwd: '/work',
      fileDir: '/work/conf',
    });
    expect(resolved).toMatchObject({ ok: true, settings: { port: 9000, maxInFlight: 64, ratePerSecond: 50, burst: 2000, modules: '/work/conf/modules', audit: '/work/adec-audit.db', host: '127.0.0.1', logLevel: 'info' } });
  });

  it('reports every problem at once, each named by where it came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adec-serve-'));
    writeFileSync(join(dir, 'serve.json'), JSON.stringify({ modules: 'm', port: 'eighty', colour: 'blue', 'log-level': 'loud' }));
    const run = await runCli(['serve', '--config', 'serve.json', '--max-in-flight', '0'], dir);
    expect(run.code).toBe(2);
    const problems = run.stderr.split('\n\n')[0]!;
    expect(problems).toContain("serve.json: `colour` is not a setting");
    expect(problems).toContain('missing --trust (or ADEC_TRUST, or `trust` in a --config file)');
    expect(problems).toContain('serve.json: `port` `eighty` is not a port (an integer 0–65535)');
    expect(problems).toContain('--max-in-flight `0` is not a whole number of at least 1');
    expect(problems).toContain('serve.json: `log-level` `loud` is not a log level');
  });

  it('never accepts a malformed value, whatever the source (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('port', 'max-in-flight', 'rate-limit', 'burst', 'retention-days'), fc.oneof(fc.string(), fc.constant('-1'), fc.constant('1e9'), fc.constant('0x10')), (flag, value) => {
        const resolved = resolveServeSettings({ flags: { ...REQUIRED, [flag]: value }, env: {}, cwd: '/' });
        if (resolved.ok) {
          const settings: unknown[] = Object.values(resolved.settings);
          const number = settings.find((setting) => typeof setting === 'number' && String(setting) === value.trim());
          expect(number, `${flag}=${JSON.stringify(value)}`).toBeDefined();
        } else expect(resolved.problems.join('\n')).toContain(`--${flag}`);
      }),
      { numRuns: 300 },
    );
  });

  it('names a trust or key file it cannot use, and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adec-serve-'));
    writeFileSync(join(dir, 'trust.json'), '{"signing_keys": []}');
    const run = await runCli(['serve', ...Object.entries(REQUIRED).flatMap(([flag, value]) => [`--${flag}`, value])], dir);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringMatching(/^adec serve: trust file `.*\/trust\.json` has an empty `signing_keys`/) });
  });
});

describe('adec audit verify', () => {
  async function storeWithRecords(count: number) {
    const dir = mkdtempSync(join(tmpdir(), 'adec-audit-cli-'));
    const path = join(dir, 'audit.db');
    const opened = await openAuditStore(path);
    if (!opened.ok) throw new Error(opened.message);
    await Promise.all(Array.from({ length: count }, (_, i) => opened.store.append({ tenant: i % 2 ? 'acme' : 'globex', decisionId: `d${i}`, kind: 'adjudication', requestHash: 'h', payload: { i } })));
    await opened.store.close();
    return { dir, path };
  }

  it('prints each chain with its head and exits 0 when all verify', async () => {
    const { dir, path } = await storeWithRecords(10);
    const run = await runCli(['audit', 'verify', '--audit', path], dir);
    expect(run.stdout).toMatch(/^ok {6}acme: 5 records, head 5 [0-9a-f]{64}\nok {6}globex: 5 records, head 5 [0-9a-f]{64}\nall 2 chains verify\n$/);
    expect(run.code).toBe(0);
    const json = await runCli(['audit', 'verify', '--audit', path, '--format', 'json', '--tenant', 'acme'], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, chains: [{ tenant: 'acme', records: 5, problem: null }] });
  });

  it('names the first broken link of a tampered chain, through the launcher, and exits 1', async () => {
    const { dir, path } = await storeWithRecords(10);
    const db = new Database(path);
    db.exec("DROP TRIGGER decision_records_no_update; UPDATE decision_records SET body = replace(body, '\"i\":5', '\"i\":55') WHERE tenant = 'acme' AND seq = 3");
    db.close();
    const run = spawnSync(process.execPath, ['packages/cli/bin/adec.js', 'audit', 'verify', '--audit', path], { encoding: 'utf8' });
    expect(run.stdout).toContain('BROKEN  acme: RECORD_ALTERED at record 3: record 3 (d5) does not match its hash: its content was changed');
    expect(run.stdout).toContain('1 of 2 chains are broken');
    expect(run.status).toBe(1);
    expect(dir).toBeTruthy();
  });

  it('refuses a file that is not an audit store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adec-audit-cli-'));
    writeFileSync(join(dir, 'notes.db'), 'not a database '.repeat(100));
    const run = await runCli(['audit', 'verify', '--audit', 'notes.db'], dir);
    expect(run).toMatchObject({ code: 1, stderr: expect.stringMatching(/^adec audit: STORE_UNAVAILABLE: .*file is not a database/) });
    expect((await runCli(['audit', 'check'], dir)).code).toBe(2);
  });
});

describe('adec token', () => {
  it('mints a token from an adec keygen key that the service verifies, with its delegation chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adec-token-'));
    const key = generateKey('jwk');
    writeFileSync(join(dir, 'issuer.key.jwk'), key.privateText);
    const run = await runCli(['token', '--key', 'issuer.key.jwk', '--org', 'acme', '--sub', 'agent-1', '--act', 'planner', '--act', 'alice', '--issuer', 'https://i', '--audience', 'adec', '--expires', '10m'], dir);
    expect(run.code).toBe(0);
    const verifier = new TokenVerifier({ issuer: 'https://i', audience: 'adec', keys: [JSON.parse(key.publicText)] });
    expect(await verifier.verify(`Bearer ${run.stdout.trim()}`)).toMatchObject({ ok: true, caller: { tenant: 'acme', subject: 'agent-1', delegation: [{ subject: 'planner' }, { subject: 'alice' }] } });
    expect((await runCli(['token', '--key', 'issuer.key.jwk', '--org', 'acme', '--issuer', 'i', '--audience', 'a', '--expires', 'soon'], dir)).code).toBe(2);
    writeFileSync(join(dir, 'public.jwk'), key.publicText);
    expect(await runCli(['token', '--key', 'public.jwk', '--org', 'acme', '--issuer', 'i', '--audience', 'a'], dir)).toMatchObject({ code: 1, stderr: expect.stringContaining('is not an Ed25519 private JWK') });
  });
});
