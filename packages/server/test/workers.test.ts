/**
 * `adec serve --workers 2` as a deployment runs it (packages/server/README.md "Worker
 * processes"): a worker killed under load loses no acknowledged decision, is replaced, and the
 * other serves meanwhile; a tenant's rate limit is the service's, not each worker's; /metrics
 * adds up every worker's; SIGHUP makes every worker load a newly approved bundle at once; and
 * a Ctrl-C or SIGTERM stops every worker gracefully.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveModule, formatSignatureFile } from '@adec/runtime';
import { repoPath } from '../../../test/support/repo.js';
import { injectIntoBundle, publish } from '../../../test/support/runtime.js';
import { decideLoad, expectStored, LOAD_CONTEXTS } from './decide-load.js';
import { addDependent } from './service-fixture.js';
import { prepareDeployment, startServeProcess, type Deployment, type ServeProcess } from './serve-process.js';

let dir: string;
let deployment: Deployment;
let token: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adec-workers-'));
  deployment = await prepareDeployment(dir);
  token = await deployment.issuer.token({}, { expiresIn: '10m' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serveWorkers(audit: string, ...extra: string[]): Promise<ServeProcess> {
  return startServeProcess([...deployment.args, '--audit', audit, '--workers', '2', '--log-level', 'info', ...extra]);
}

/** The worker pids the supervisor's ready line names, by slot. */
function workerPids(service: ServeProcess): number[] {
  const ready = service.logs.find((entry) => entry['msg'] === 'adec serve is ready');
  return (ready?.['pids'] as number[] | undefined) ?? [];
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One decision on a connection of its own (so the cluster hands each to the next worker in turn). */
function decideOnNewConnection(url: string, body: unknown): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(`${url}/v1/decide`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' } }, (response) => {
      let received = '';
      response.on('data', (chunk: Buffer) => (received += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: received }));
    });
    sent.on('error', reject);
    sent.end(text);
  });
}

function auditVerify(audit: string) {
  return spawnSync(process.execPath, [repoPath('packages/cli/bin/adec.js'), 'audit', 'verify', '--audit', audit], { encoding: 'utf8' });
}

async function stop(service: ServeProcess): Promise<void> {
  service.child.kill('SIGTERM');
  expect(await service.exited, service.stderr()).toEqual({ code: 0, signal: null });
}

/** The value of an unlabelled sample, or the sum of a metric's samples, in Prometheus text. */
function metricSum(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('adec serve --workers 2', () => {
  it('loses no acknowledged decision when a worker is killed under load: the other serves meanwhile, a replacement takes its slot, the chain verifies', async () => {
    const audit = join(dir, 'killed.db');
    const service = await serveWorkers(audit);
    const pids = workerPids(service);
    expect(pids).toHaveLength(2);
    const running = decideLoad(service.url, token, 16, 'killed');
    await until(() => running.answered.length >= 300, 30_000, '300 decisions');
    const killedAt = Date.now();
    process.kill(pids[1]!, 'SIGKILL');
    await until(() => service.logs.some((entry) => entry['msg'] === 'a replacement worker is serving'), 30_000, 'the replacement');
    const replacedAt = Number(service.logs.find((entry) => entry['msg'] === 'a replacement worker is serving')!['time']);
    await until(() => running.answered.filter((answer) => answer.at > replacedAt).length >= 100, 30_000, '100 decisions after the replacement');
    await running.stop();

    expect(service.logs).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^a worker died/), slot: 1, workerPid: pids[1], signal: 'SIGKILL' }));
    const replacement = service.logs.find((entry) => entry['msg'] === 'a replacement worker is serving')!;
    expect(replacement).toMatchObject({ slot: 1 });
    expect(replacement['workerPid']).not.toBe(pids[1]);
    // The surviving worker answered while slot 1 was being replaced.
    expect(running.answered.filter((answer) => answer.at > killedAt && answer.at < replacedAt).length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metricSum(metrics, 'adec_worker_restarts_total')).toBe(1);
    expect(metricSum(metrics, 'adec_workers')).toBe(2);

    await expectStored(service.url, token, running.answered);
    await stop(service);
    const verified = auditVerify(audit);
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
    expect(Number(/acme: (\d+) records/.exec(verified.stdout)?.[1])).toBeGreaterThanOrEqual(running.answered.length);
  });

  it("holds an org to the service's rate limit, whichever worker each connection reaches, and /metrics adds up both workers", async () => {
    const service = await serveWorkers(join(dir, 'limited.db'), '--rate-limit', '2', '--burst', '12');
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => decideOnNewConnection(service.url, addDependent(LOAD_CONTEXTS[i % LOAD_CONTEXTS.length]!))));
      const seconds = (Date.now() - started) / 1000;
      const allowed = answers.filter((answer) => answer.status === 200).length;
      const limited = answers.filter((answer) => answer.status === 429);
      expect(allowed + limited.length, JSON.stringify(answers.filter((answer) => answer.status !== 200 && answer.status !== 429))).toBe(40);
      // Each worker with a bucket of its own would let 24 through at once.
      expect(allowed).toBeGreaterThanOrEqual(12);
      expect(allowed).toBeLessThanOrEqual(12 + Math.ceil(2 * seconds));
      expect(JSON.parse(limited[0]!.body)).toMatchObject({ error: { code: 'RATE_LIMITED', message: 'org acme is over its rate limit of 2 decisions per second' } });

      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      expect(metricSum(metrics, 'adec_decisions_total')).toBe(allowed);
      expect(metrics).toMatch(/^adec_refusals_total\{code="RATE_LIMITED"\} (\d+)$/m);
      expect(Number(/^adec_refusals_total\{code="RATE_LIMITED"\} (\d+)$/m.exec(metrics)![1])).toBe(limited.length);
      expect(metricSum(metrics, 'adec_workers')).toBe(2);
      // Both workers loaded the module; it is counted once.
      expect(metricSum(metrics, 'adec_modules')).toBe(1);
    } finally {
      await stop(service);
    }
  });

  it('makes every worker serve a newly approved bundle at SIGHUP, without waiting for its scan', async () => {
    const modules = mkdtempSync(join(dir, 'modules-'));
    const original = deployment.bundle;
    publish(original, modules, deployment.keys);
    const service = await serveWorkers(join(dir, 'reload.db'), '--modules', modules);
    try {
      const served = async () => {
        const answers = await Promise.all(Array.from({ length: 4 }, () => decideOnNewConnection(service.url, addDependent(LOAD_CONTEXTS[0]!))));
        return new Set(answers.map((answer) => (JSON.parse(answer.body) as { decision_metadata: { module: { module_hash: string } } }).decision_metadata.module.module_hash));
      };
      expect(await served()).toEqual(new Set([original.manifest['module_hash']]));
      const updated = injectIntoBundle(original, 'm.__revision = 2;');
      const world = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
      const bundleDir = publish(updated, modules, deployment.keys, { approve: false });
      writeFileSync(join(bundleDir, 'approval.json'), formatSignatureFile(approveModule({ moduleHash: String(updated.manifest['module_hash']), world, issuedAt: Date.now() + 1_000 }, deployment.keys.approver)));
      const signalled = Date.now();
      service.child.kill('SIGHUP');
      await until(() => service.logs.filter((entry) => entry['msg'] === 'module replaced by a newer approved bundle').length === 2, 5_000, 'both workers replacing the module');
      // Well inside the 10 s between scans: the signal did it.
      expect(Date.now() - signalled).toBeLessThan(5_000);
      expect(await served()).toEqual(new Set([updated.manifest['module_hash']]));
    } finally {
      await stop(service);
    }
  });
});
