/**
 * Several processes opening one new SQLite audit file at the same moment, as the worker
 * processes of `adec serve --workers N` do at start: every one opens it (none is told "database
 * is locked"), each appends its records to the shared chains, and every chain verifies with all
 * of them. Generated over process counts and over fresh files, since who wins the race to set
 * the file up differs from run to run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAuditStore, verifyChains } from '@adec/audit';
import { repoPath } from '../../../test/support/repo.js';

const dir = mkdtempSync(join(tmpdir(), 'adec-audit-concurrent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RECORDS_EACH = 5;

/** A process that waits until `startAt` (so all start together), opens `path`, appends its records and closes. */
const WRITER = `
const [path, name, startAt, records, killed] = process.argv.slice(2);
const { openAuditStore } = await import(${JSON.stringify(repoPath('packages/audit/dist/index.js'))});
while (Date.now() < Number(startAt)) {}
const opened = await openAuditStore(path);
if (!opened.ok) { console.log(JSON.stringify(opened)); process.exit(1); }
// 'killed': appends until it is killed, leaving the file as a SIGKILL mid-write does.
for (let i = 0; killed === 'killed' || i < Number(records); i++) {
  const appended = await opened.store.append({ tenant: 'acme', decisionId: name + '-' + i, kind: 'adjudication', requestHash: 'req-' + name + '-' + i, payload: { status: 'GREEN' } });
  if (!appended.ok) { console.log(JSON.stringify(appended)); process.exit(1); }
}
await opened.store.close();
console.log(JSON.stringify({ ok: true }));
`;

// A file, not `node -e`: the store's writer thread would inherit `--input-type` and refuse it.
const writerScript = join(dir, 'writer.mjs');
writeFileSync(writerScript, WRITER);

function writer(path: string, name: string, startAt: number, killAfterMs?: number): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [writerScript, path, name, String(startAt), String(RECORDS_EACH), killAfterMs === undefined ? '' : 'killed'], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('processes opening one new SQLite file at once', () => {
  for (const processes of [2, 3, 4, 6]) {
    for (const after of ['new', 'killed'] as const) {
      it(`${processes} processes, ${after === 'new' ? 'the file new' : 'while a writer appends and is killed'}: each opens it and appends; the chain holds every record`, async () => {
        const path = join(dir, `p${processes}-${after}.db`);
        // Far enough ahead for every process to have loaded the store's code and be spinning.
        const startAt = Date.now() + 1_500;
        // A writer still appending when they open, killed while they do.
        const killed = after === 'killed' ? writer(path, 'killed', 0, startAt + 20 - Date.now()) : undefined;
        const runs = await Promise.all(Array.from({ length: processes }, (_, i) => writer(path, `w${i}`, startAt)));
        await killed;
        expect(runs.map((run) => run.stdout.trim())).toEqual(runs.map(() => JSON.stringify({ ok: true })));
        const opened = await openAuditStore(path);
        if (!opened.ok) throw new Error(opened.message);
        try {
          expect(await verifyChains(opened.store)).toMatchObject({ ok: true, valid: true, chains: [{ tenant: 'acme', problem: null }] });
          for (let i = 0; i < processes; i++) {
            for (let j = 0; j < RECORDS_EACH; j++) expect(await opened.store.get('acme', `w${i}-${j}`), `w${i}-${j}`).toMatchObject({ ok: true, value: { decisionId: `w${i}-${j}` } });
          }
        } finally {
          await opened.store.close();
        }
      });
    }
  }
});
