/**
 * Crash durability: `adec serve` under concurrent load is killed with SIGKILL, mid-load, and
 * started again on the same audit store. Every decision that was answered 200 before the kill
 * is in the store, exactly as it was answered, and every chain verifies. Then the graceful
 * path: SIGTERM drains the decisions in flight, each answered and recorded, and exits 0. Both
 * on the embedded SQLite store and on a real PostgreSQL server, where two replicas sharing one
 * database under concurrent load keep every chain valid.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../../../test/support/postgres-server.js';
import { repoPath } from '../../../test/support/repo.js';
import { addDependent } from './service-fixture.js';
import { decideLoad, expectStored, LOAD_CONTEXTS } from './decide-load.js';
import { prepareDeployment, startServeProcess, type Deployment } from './serve-process.js';

let dir: string;
let deployment: Deployment;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adec-crash-'));
  deployment = await prepareDeployment(dir);
  token = await deployment.issuer.token({}, { expiresIn: '10m' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function auditVerify(audit: string) {
  return spawnSync(process.execPath, [repoPath('packages/cli/bin/adec.js'), 'audit', 'verify', '--audit', audit], { encoding: 'utf8' });
}

const STORES: [string, (name: string) => Promise<string>][] = [
  ['SQLite', async (name) => join(dir, `${name}.db`)],
  ['PostgreSQL', (name) => createDatabase(inject('postgresUrl'), name)],
];

describe.each(STORES)('adec serve on %s', (_name, auditStore) => {
  it('keeps every answered decision across a SIGKILL under load, and every chain verifies', async () => {
    const audit = await auditStore('crash');
    const first = await startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info']);
    const running = decideLoad(first.url, token, 32, 'crash');
    while (running.answered.length < 400) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await running.stop();
    const answered = running.answered;
    expect(answered.length).toBeGreaterThanOrEqual(400);

    const second = await startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info']);
    try {
      await expectStored(second.url, token, answered);
      // The chain goes on after the crash.
      const after = await fetch(`${second.url}/v1/decide`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(addDependent(LOAD_CONTEXTS[0]!)) });
      expect(after.status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const verified = auditVerify(audit);
    expect(verified.stderr).toBe('');
    expect(verified.stdout).toMatch(/^ok {6}acme: \d+ records, head \d+ [0-9a-f]{64}\nall 1 chains verify\n$/);
    expect(verified.status).toBe(0);
  });

  it('stops on SIGTERM after answering and recording every decision in flight, and exits 0', async () => {
    const audit = await auditStore('graceful');
    const serve = await startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info']);
    const running = decideLoad(serve.url, token, 16, 'graceful');
    while (running.answered.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    await running.stop();
    expect(serve.logs.some((entry) => String(entry['msg']).startsWith('adec serve is stopping'))).toBe(true);
    const verified = auditVerify(audit);
    expect(verified.status).toBe(0);
    const records = Number(/acme: (\d+) records/.exec(verified.stdout)?.[1]);
    // Every 200 is recorded; nothing was recorded that was not answered, except decisions whose
    // client had already given up when the service closed their connection.
    expect(records).toBeGreaterThanOrEqual(running.answered.length);
  });
});

describe('two adec serve replicas on one PostgreSQL database', () => {
  it('keep every chain valid under concurrent load on both', async () => {
    const audit = await createDatabase(inject('postgresUrl'), 'replicas');
    const replicas = await Promise.all([0, 1].map(() => startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info'])));
    try {
      const runs = replicas.map((replica, i) => decideLoad(replica.url, token, 16, `replica${i}`));
      while (runs.some((run) => run.answered.length < 300)) await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all(runs.map((run) => run.stop()));
      // A decision answered by one replica is found by the other.
      await expectStored(replicas[1]!.url, token, runs[0]!.answered);
      await expectStored(replicas[0]!.url, token, runs[1]!.answered);
    } finally {
      for (const replica of replicas) replica.child.kill('SIGTERM');
      await Promise.all(replicas.map((replica) => replica.exited));
    }
    const verified = auditVerify(audit);
    expect(verified.stdout).toMatch(/^ok {6}acme: \d+ records/);
    expect(verified.status).toBe(0);
  });
});
