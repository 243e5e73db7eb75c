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
import { prepareDeployment, startServeProcess, type Deployment } from './serve-process.js';

const CONTEXTS = [
  { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] },
  { relationship: 'child', dependent_age: 27, full_time_student: true, documents: ['birth_certificate'] },
  { relationship: 'stepchild', dependent_age: 8 },
  { relationship: 'child', dependent_age: 27, documents: ['birth_certificate'] },
];

let dir: string;
let deployment: Deployment;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adec-crash-'));
  deployment = await prepareDeployment(dir);
  token = await deployment.issuer.token({}, { expiresIn: '10m' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answered {
  readonly id: string;
  readonly body: string;
}

/** `workers` loops deciding until `stop()`; the decisions answered 200, and how many requests failed. */
function load(url: string, workers: number, prefix: string) {
  const answered: Answered[] = [];
  let failed = 0;
  let stopped = false;
  let sequence = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const id = `${prefix}-${sequence++}`;
      try {
        const response = await fetch(`${url}/v1/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(addDependent(CONTEXTS[sequence % CONTEXTS.length]!, { request_id: id })),
        });
        const body = await response.text();
        if (response.status === 200) answered.push({ id, body });
        else failed += 1;
      } catch {
        failed += 1;
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the crash below while this loop awaits, which TypeScript's narrowing does not see
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  });
  return {
    answered,
    failures: () => failed,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

function auditVerify(audit: string) {
  return spawnSync(process.execPath, [repoPath('packages/cli/bin/adec.js'), 'audit', 'verify', '--audit', audit], { encoding: 'utf8' });
}

const STORES: [string, (name: string) => Promise<string>][] = [
  ['SQLite', async (name) => join(dir, `${name}.db`)],
  ['PostgreSQL', (name) => createDatabase(inject('postgresUrl'), name)],
];

async function expectStored(url: string, answered: readonly Answered[]) {
  for (const { id, body } of answered) {
    const stored = await fetch(`${url}/v1/decisions/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(stored.status, id).toBe(200);
    expect(((await stored.json()) as { response: unknown }).response).toEqual(JSON.parse(body));
  }
}

describe.each(STORES)('adec serve on %s', (_name, auditStore) => {
  it('keeps every answered decision across a SIGKILL under load, and every chain verifies', async () => {
    const audit = await auditStore('crash');
    const first = await startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info']);
    const running = load(first.url, 32, 'crash');
    while (running.answered.length < 400) await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await running.stop();
    const answered = running.answered;
    expect(answered.length).toBeGreaterThanOrEqual(400);

    const second = await startServeProcess([...deployment.args, '--audit', audit, '--log-level', 'info']);
    try {
      await expectStored(second.url, answered);
      // The chain goes on after the crash.
      const after = await fetch(`${second.url}/v1/decide`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(addDependent(CONTEXTS[0]!)) });
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
    const running = load(serve.url, 16, 'graceful');
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
      const runs = replicas.map((replica, i) => load(replica.url, 16, `replica${i}`));
      while (runs.some((run) => run.answered.length < 300)) await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all(runs.map((run) => run.stop()));
      // A decision answered by one replica is found by the other.
      await expectStored(replicas[1]!.url, runs[0]!.answered);
      await expectStored(replicas[0]!.url, runs[1]!.answered);
    } finally {
      for (const replica of replicas) replica.child.kill('SIGTERM');
      await Promise.all(replicas.map((replica) => replica.exited));
    }
    const verified = auditVerify(audit);
    expect(verified.stdout).toMatch(/^ok {6}acme: \d+ records/);
    expect(verified.status).toBe(0);
  });
});
