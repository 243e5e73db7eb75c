/**
 * Stopping `adec serve` (packages/server/README.md "Stopping"), with real processes on
 * loopback, started as an operator starts them: through the launcher (bin/adec.js), on a SQLite
 * audit store, with a token.
 *
 * Decisions are held in flight by a write lock the test takes on the audit database: each one
 * is decided and waits for its record to commit (a decision is answered only then). Releasing
 * the lock lets them finish. Each is sent with `Expect: 100-continue`, its body only once the
 * service has read its headers, so the test knows that every one is in flight when it signals.
 *
 * - SIGTERM with 100 half-sent and 100 in-flight requests: the half-sent connections are closed
 *   at once (before, one client that sent part of a request kept the process alive until the
 *   request's deadline or until it went away), the in-flight ones are answered 200 and recorded,
 *   and the process exits 0 within its grace period.
 * - A second SIGTERM, or the grace period's end, makes it exit at once: nothing was answered
 *   that is not recorded, and the store verifies.
 * - Ctrl-C (SIGINT to the launcher and the server, and passed on by the launcher) is one request
 *   to stop, not two.
 * - SIGKILL of the launcher: the server it started stops too, and the port is free (before, the
 *   server went on under PID 1, ready, holding the port).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../../../test/support/repo.js';
import { openRaw, parseAnswer, type RawConnection } from './raw-http.js';
import { addDependent, BY_STATUS } from './service-fixture.js';
import { prepareDeployment, startServeProcess, type Deployment, type ServeProcess } from './serve-process.js';

let dir: string;
let deployment: Deployment;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adec-shutdown-'));
  deployment = await prepareDeployment(dir);
  token = await deployment.issuer.token({}, { expiresIn: '10m' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IN_FLIGHT = 100;
const HALF_SENT = 100;
const GRACE_MS = 10_000;

/** Every test runs in one process and with worker processes under a supervisor (packages/server/README.md "Worker processes"). */
const WORKER_COUNTS = [1, 2];

function serve(audit: string, workers: number, graceMs = GRACE_MS): Promise<ServeProcess> {
  // The per-address cap is above the test's 200 connections from 127.0.0.1.
  return startServeProcess([...deployment.args, '--audit', audit, '--workers', String(workers), '--shutdown-grace-ms', String(graceMs), '--log-level', 'info'], { launcher: true });
}

/** Holds SQLite's write lock on `audit` until released: every commit of the service waits for it (its busy timeout is 5 s). */
function holdWriteLock(audit: string): { release(): void } {
  const db = new Database(audit, { timeout: 5_000 });
  db.exec('BEGIN IMMEDIATE');
  return {
    release() {
      db.exec('COMMIT');
      db.close();
    },
  };
}

function decideBody(id: string): string {
  return JSON.stringify(addDependent(BY_STATUS.GREEN, { request_id: id }));
}

function decideHeaders(body: string, extra = ''): string {
  return `POST /v1/decide HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`;
}

function decideRequest(id: string): string {
  const body = decideBody(id);
  return decideHeaders(body) + body;
}

/**
 * Decisions in flight: each request is sent with `Expect: 100-continue`, and its body only once
 * the service has read its headers, so that every one has been read whole when the test signals.
 */
async function sendInFlight(url: string, ids: readonly string[]): Promise<RawConnection[]> {
  const connections = await openAll(url, ids.map((id) => decideHeaders(decideBody(id), 'Expect: 100-continue\r\n')));
  await until(() => connections.every((connection) => connection.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n')), 10_000);
  await Promise.all(connections.map((connection, i) => new Promise((written) => connection.socket.write(decideBody(ids[i]!), written))));
  return connections;
}

/** The answer after the 100 Continue. */
function finalAnswer(connection: RawConnection) {
  return parseAnswer(connection.received().replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
}

/** Half the connections stop inside their headers, half inside an authenticated body. */
function halfSentRequest(i: number): string {
  if (i % 2 === 0) return 'POST /v1/decide HTTP/1.1\r\nHost: x\r\n';
  const whole = decideRequest(`half-${i}`);
  return whole.slice(0, whole.length - 20);
}

async function openAll(url: string, requests: readonly string[]): Promise<RawConnection[]> {
  const connections = requests.map(() => openRaw(url));
  await Promise.all(connections.map((connection) => connection.connected));
  await Promise.all(connections.map((connection, i) => new Promise((written) => connection.socket.write(requests[i]!, written))));
  return connections;
}

/** The server the launcher started: its one child process. */
function serverPid(launcherPid: number): number {
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === launcherPid;
      } catch {
        return false;
      }
    });
  expect(children).toHaveLength(1);
  return Number(children[0]);
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - start;
}

/** Whether connecting to `port` is refused (nothing listens) within `timeoutMs`. */
async function refusedWithin(port: number, timeoutMs: number): Promise<boolean> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
        .on('connect', () => {
          socket.destroy();
          resolve(false);
        })
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function auditVerify(audit: string) {
  return spawnSync(process.execPath, [repoPath('packages/cli/bin/adec.js'), 'audit', 'verify', '--audit', audit], { encoding: 'utf8' });
}

function recordsIn(audit: string): number {
  const verified = auditVerify(audit);
  expect(verified.stderr).toBe('');
  expect(verified.status).toBe(0);
  return Number(/acme: (\d+) records?,/.exec(verified.stdout)?.[1] ?? 0);
}

/** How many of `connections` were answered 200. */
function answeredOk(connections: readonly RawConnection[]): number {
  return connections.filter((connection) => finalAnswer(connection)?.status === 200).length;
}

describe.each(WORKER_COUNTS)('adec serve --workers %i stops on SIGTERM', (workers) => {
  it(`with ${HALF_SENT} half-sent and ${IN_FLIGHT} in-flight requests: closes the half-sent at once, answers and records the in-flight, exits 0 within the grace period`, async () => {
    const audit = join(dir, `graceful-${workers}.db`);
    const service = await serve(audit, workers);
    const lock = holdWriteLock(audit);
    const inFlight = await sendInFlight(service.url, Array.from({ length: IN_FLIGHT }, (_, i) => `flight-${i}`));
    const halfSent = await openAll(service.url, Array.from({ length: HALF_SENT }, (_, i) => halfSentRequest(i)));
    // The decisions are made and wait for the lock: nothing is answered yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answeredOk(inFlight)).toBe(0);

    const signalled = Date.now();
    service.child.kill('SIGTERM');
    const halfSentClosed = await Promise.all(halfSent.map((connection) => connection.closed.then(() => Date.now() - signalled)));
    expect(Math.max(...halfSentClosed)).toBeLessThan(1_000);
    // The listener is closed too; the in-flight connections are not. With workers, the port is
    // the supervisor's and closes once the last worker has closed its server, a moment later.
    expect(await refusedWithin(Number(new URL(service.url).port), 1_000)).toBe(true);
    expect(inFlight.filter((connection) => connection.socket.destroyed).map((connection) => connection.received()), service.stderr()).toEqual([]);

    lock.release();
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
    await Promise.all(inFlight.map((connection) => connection.closed));
    for (const connection of inFlight) {
      const answer = finalAnswer(connection);
      expect(answer?.status).toBe(200);
      expect(answer?.headers['connection']).toBe('close');
    }
    for (const connection of halfSent) expect(connection.received()).toBe('');
    expect(recordsIn(audit)).toBe(IN_FLIGHT);
  });

  it('exits at once at a second SIGTERM, with nothing answered that is not recorded', async () => {
    const audit = join(dir, `second-${workers}.db`);
    const service = await serve(audit, workers);
    const lock = holdWriteLock(audit);
    try {
      const inFlight = await sendInFlight(service.url, Array.from({ length: 10 }, (_, i) => `second-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      service.child.kill('SIGTERM');
      // A copy of the same signal (Ctrl-C reaches the launcher and the server) is not a second one.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(alive(service.child.pid!)).toBe(true);
      const second = Date.now();
      service.child.kill('SIGTERM');
      expect(await service.exited, service.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
      expect(Date.now() - second).toBeLessThan(1_000);
      await Promise.all(inFlight.map((connection) => connection.closed));
      expect(answeredOk(inFlight)).toBe(0);
    } finally {
      lock.release();
    }
    recordsIn(audit);
    expect(service.logs.some((entry) => entry['reason'] === 'a second SIGTERM')).toBe(true);
  });

  it('exits at the end of the grace period, with nothing answered that is not recorded', async () => {
    const audit = join(dir, `deadline-${workers}.db`);
    const service = await serve(audit, workers, 1_500);
    const lock = holdWriteLock(audit);
    try {
      const inFlight = await sendInFlight(service.url, Array.from({ length: 10 }, (_, i) => `deadline-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      expect(await service.exited, service.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1_400);
      expect(Date.now() - signalled).toBeLessThan(3_000);
      expect(answeredOk(inFlight)).toBe(0);
    } finally {
      lock.release();
    }
    recordsIn(audit);
  });
});

describe.each(WORKER_COUNTS)('adec serve --workers %i: the launcher and the server live and die together', (workers) => {
  it('Ctrl-C (SIGINT to the launcher and the server together, and passed on by the launcher) stops the server once, gracefully', async () => {
    const audit = join(dir, `ctrl-c-${workers}.db`);
    const service = await startServeProcess([...deployment.args, '--audit', audit, '--workers', String(workers), '--log-level', 'info'], { launcher: true, ownGroup: true });
    const lock = holdWriteLock(audit);
    const inFlight = await sendInFlight(service.url, ['ctrl-c']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // What a terminal does at Ctrl-C: the signal to every process of the foreground group.
    process.kill(-service.child.pid!, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    lock.release();
    expect(await service.exited, service.stderr()).toEqual({ code: 0, signal: null });
    await inFlight[0]!.closed;
    expect(finalAnswer(inFlight[0]!)?.status).toBe(200);
    expect(recordsIn(audit)).toBe(1);
  });


  it('SIGKILL of the launcher stops the server, and the port is free', async () => {
    const service = await serve(join(dir, `orphan-${workers}.db`), workers);
    const server = serverPid(service.child.pid!);
    const port = Number(new URL(service.url).port);
    try {
      service.child.kill('SIGKILL');
      expect((await service.exited).signal).toBe('SIGKILL');
      const gone = await until(() => !alive(server), 5_000);
      expect(gone).toBeLessThan(3_000);
      const free = createServer();
      await new Promise<void>((resolve, reject) => free.once('error', reject).listen(port, '127.0.0.1', resolve));
      await new Promise((resolve) => free.close(resolve));
    } finally {
      if (alive(server)) process.kill(server, 'SIGKILL');
    }
  });
});
