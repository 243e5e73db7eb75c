/**
 * A throwaway PostgreSQL server for the HTTP bench's PostgreSQL row: the same steps as the
 * tests' server (test/support/postgres-server.ts, TypeScript the bench cannot import), kept to
 * what one bench run needs. The binaries come from `scripts/ensure-postgres.sh`; a fresh
 * cluster in its own temp directory (on disk, not tmpfs), trust authentication, listening on
 * 127.0.0.1 only, with the durability settings the audit store relies on spelled out.
 *
 * Anything that keeps a server from starting is returned as a reason, not thrown: the bench
 * then skips the row with that note.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const HOST = '127.0.0.1';
const SUPERUSER = 'adec';
const DATABASE = 'audit';
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 10_000;
const ENSURE = fileURLToPath(new URL('../../scripts/ensure-postgres.sh', import.meta.url));
/** Durability as the audit store's claims need it; the rest is PostgreSQL's defaults. */
const SETTINGS = ['fsync=on', 'synchronous_commit=on', 'full_page_writes=on', 'max_connections=100', 'shared_buffers=128MB'];

/**
 * @returns {Promise<{ ok: true, url: string, pid: number, stop: () => Promise<void> } | { ok: false, reason: string }>}
 */
export async function startPostgres() {
  const binDir = serverBinDir();
  if (!binDir.ok) return binDir;
  const account = serverAccount();
  if (!account.ok) return account;
  const baseDir = mkdtempSync(join(tmpdir(), 'adec-bench-postgres-'));
  const dataDir = join(baseDir, 'data');
  const socketDir = join(baseDir, 'socket');
  mkdirSync(socketDir);
  if (account.ids !== undefined) for (const dir of [baseDir, socketDir]) chownSync(dir, account.ids.uid, account.ids.gid);
  try {
    const initdb = [join(binDir.path, 'initdb'), '-D', dataDir, '--auth=trust', '-U', SUPERUSER, '--encoding=UTF8', '--locale=C', '--no-instructions'];
    // initdb refuses to run as root; runuser is fine for a command that ends by itself.
    execFileSync(account.ids === undefined ? initdb[0] : 'runuser', account.ids === undefined ? initdb.slice(1) : ['-u', 'postgres', '--', ...initdb], { cwd: baseDir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(baseDir, { recursive: true, force: true });
    return { ok: false, reason: `initdb failed: ${String(error.stderr ?? error.message).trim().split('\n').at(-1)}` };
  }
  const port = await freeLoopbackPort();
  const args = ['-D', dataDir, '-h', HOST, '-p', String(port), '-k', socketDir, ...SETTINGS.flatMap((setting) => ['-c', setting])];
  // Spawned as the account directly rather than through runuser, so that signals reach the
  // postmaster itself (a SIGKILL to runuser orphans it).
  const child = spawn(join(binDir.path, 'postgres'), args, { cwd: baseDir, stdio: ['ignore', 'ignore', 'pipe'], ...account.ids });
  let log = '';
  child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-4_000)));
  const running = () => child.exitCode === null && child.signalCode === null;
  // A bench that dies must not leave a server behind: immediate shutdown on any exit.
  const onExit = () => running() && child.kill('SIGQUIT');
  process.on('exit', onExit);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    process.off('exit', onExit);
    if (running()) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(baseDir, { recursive: true, force: true, maxRetries: 5 });
  };

  const serverUrl = (database) => `postgres://${SUPERUSER}@${HOST}:${port}/${database}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await accepts(serverUrl('postgres')))) {
    if (!running() || Date.now() > deadline) {
      await stop();
      return { ok: false, reason: `postgres did not start: ${log.trim().split('\n').at(-1) ?? 'no output'}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const client = new pg.Client({ connectionString: serverUrl('postgres') });
  await client.connect();
  await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  return { ok: true, url: serverUrl(DATABASE), pid: child.pid, stop };
}

function serverBinDir() {
  if (!existsSync(ENSURE)) return { ok: false, reason: 'scripts/ensure-postgres.sh is missing' };
  try {
    const stdout = execFileSync('bash', [ENSURE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, path: stdout.trim().split('\n').at(-1) };
  } catch (error) {
    return { ok: false, reason: `no PostgreSQL server binaries: ${String(error.stderr ?? error.message).trim().split('\n')[0]}` };
  }
}

/** As root, the `postgres` account (initdb and postgres refuse root); otherwise the current user. */
function serverAccount() {
  if (process.getuid?.() !== 0) return { ok: true, ids: undefined };
  try {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { ok: true, ids: { uid: id('-u'), gid: id('-g') } };
  } catch {
    return { ok: false, reason: 'running as root and there is no `postgres` account to run the server as' };
  }
}

async function accepts(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
