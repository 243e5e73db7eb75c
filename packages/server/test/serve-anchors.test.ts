/**
 * `adec serve --anchors <file> --anchor-key <key> --anchor-interval-seconds <n>` (issue 26,
 * finding 6): the running service appends a signed anchor of every chain's head to the file, at
 * start and at the interval; `adec audit verify --anchors` accepts them for the store as it is,
 * and fails, at the first missing position, once the chain is rolled back behind the service's back.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { SignedAnchor } from '@adec/audit';
import { generateKey } from '@adec/runtime';
import { resolveServeSettings } from '../../cli/src/serve/serve-settings.js';
import { runCli } from '../../cli/test/run-cli.js';
import { prepareDeployment, startServeProcess } from './serve-process.js';
import { addDependent, BY_STATUS } from './service-fixture.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function anchorLines(path: string): SignedAnchor[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as SignedAnchor);
}

describe('adec serve --anchors', () => {
  it('needs the file and the key together', () => {
    const required = { modules: 'm', trust: 't.json', jwks: 'j.json', issuer: 'https://i', audience: 'a' };
    const alone = resolveServeSettings({ flags: { ...required, anchors: 'anchors.jsonl' }, env: {}, cwd: '/srv' });
    expect(alone).toEqual({ ok: false, problems: [expect.stringMatching(/^--anchors and --anchor-key go together/)] });
    const both = resolveServeSettings({ flags: required, env: { ADEC_ANCHORS: 'anchors.jsonl', ADEC_ANCHOR_KEY: 'keys/anchor.key.jwk', ADEC_ANCHOR_INTERVAL_SECONDS: '60' }, cwd: '/srv' });
    expect(both).toMatchObject({ ok: true, settings: { anchors: '/srv/anchors.jsonl', anchorKey: '/srv/keys/anchor.key.jwk', anchorIntervalSeconds: 60 } });
    expect(resolveServeSettings({ flags: required, env: {}, cwd: '/srv' })).toMatchObject({ ok: true, settings: { anchorIntervalSeconds: 300 } });
  });

  it('writes signed anchors at its interval that verify prove the store against', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adec-serve-anchors-'));
    dirs.push(dir);
    const deployment = await prepareDeployment(dir);
    const key = generateKey('jwk');
    writeFileSync(join(dir, 'anchor.key.jwk'), key.privateText, { mode: 0o600 });
    writeFileSync(join(dir, 'anchor.pub.jwk'), key.publicText);
    const audit = join(dir, 'audit.db');
    const anchors = join(dir, 'anchors.jsonl');
    const serve = await startServeProcess([...deployment.args, '--audit', audit, '--anchors', anchors, '--anchor-key', join(dir, 'anchor.key.jwk'), '--anchor-interval-seconds', '1', '--log-level', 'info']);
    const token = await deployment.issuer.token();
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${serve.url}/v1/decide`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(addDependent(BY_STATUS.GREEN)) });
      expect(response.status).toBe(200);
    }
    const deadline = Date.now() + 15_000;
    while (!anchorLines(anchors).some((anchor) => anchor.seq === 5) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    const written = anchorLines(anchors);
    expect(written).toContainEqual(expect.objectContaining({ format: 'adec.anchor.v1', tenant: 'acme', chain: 'decisions', seq: 5, key_id: key.keyId }));
    expect(serve.logs).toContainEqual(expect.objectContaining({ msg: 'audit chains anchored' }));

    const verified = await runCli(['audit', 'verify', '--audit', audit, '--anchors', anchors, '--anchor-key', join(dir, 'anchor.pub.jwk')], dir);
    expect(verified).toMatchObject({ code: 0, stdout: expect.stringContaining(`checked against ${written.length} signed anchor`) });

    // Rolled back by hand to record 3: the chain alone still verifies, its anchors do not.
    const db = new Database(audit);
    db.exec('DROP TRIGGER chains_forward_only; DROP TRIGGER decision_records_no_delete');
    const { hash } = db.prepare("SELECT hash FROM decision_records WHERE tenant = 'acme' AND seq = 3").get() as { hash: string };
    db.prepare("UPDATE chains SET head_seq = 3, head_hash = ? WHERE tenant = 'acme'").run(hash);
    db.exec("DELETE FROM decision_records WHERE tenant = 'acme' AND seq > 3");
    db.close();
    expect((await runCli(['audit', 'verify', '--audit', audit], dir)).code).toBe(0);
    const rolledBack = await runCli(['audit', 'verify', '--audit', audit, '--anchors', anchors, '--anchor-key', join(dir, 'anchor.pub.jwk')], dir);
    expect(rolledBack.code).toBe(1);
    expect(rolledBack.stdout).toContain('BROKEN  acme: ANCHORED_RECORD_MISSING at record 4: ');
  });
});
