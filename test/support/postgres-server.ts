/**
 * A throwaway PostgreSQL server for tests: a fresh cluster in its own directory under the OS
 * temp dir, trust authentication, listening on 127.0.0.1 only, run as a child of the test
 * process that started it. The audit store's Postgres backend is tested against a real server
 * because its guarantees (append-only triggers, per-tenant chains under concurrent writers)
 * live in the server, not in a driver a fake could imitate.
 *
 * The binaries come from `scripts/ensure-postgres.sh`, which installs them when they are
 * missing; CI runs it before `npm ci`, so a test does not wait for apt.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { repoPath } from './repo.js';

const run = promisify(execFile);

/** The cluster's only role: a superuser that needs no password on this loopback-only server. */
const SUPERUSER = 'adec';
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 20_000;
const READY_POLL_MS = 50;
const STOP_GRACE_MS = 10_000;
/** A port the kernel reported free can be taken by another process before postgres binds it. */
const PORT_ATTEMPTS = 5;

export interface PostgresServer {
  /** `postgres://adec@127.0.0.1:<port>/<database>`; no password, trust authentication. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Fast shutdown (SIGINT), SIGKILL if it takes over 10 s; then removes the directories. */
  stop(): Promise<void>;
  /**
   * Immediate shutdown (SIGQUIT), for cleaning up after a failure; then removes the
   * directories. The first of `stop`/`kill` called decides how the server goes; later calls
   * wait for that.
   */
  kill(): Promise<void>;
}

export interface StartPostgresOptions {
  /** The database created for the caller and named in `url`; `adec` by default. */
  readonly database?: string;
}

/** Starts a fresh server and creates its database; resolves once it accepts connections. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const database = options.database ?? 'adec';
  const cluster = createClusterDir(await serverBinDir(), await serverAccount());
  try {
    await initCluster(cluster);
    const postmaster = await startPostmaster(cluster);
    const urlOf = (db: string) => `postgres://${SUPERUSER}@${HOST}:${postmaster.port}/${encodeURIComponent(db)}`;
    let shutdown: Promise<void> | undefined;
    const shutDownWith = async (signal: NodeJS.Signals) => {
      await postmaster.shutDown(signal);
      cluster.remove();
    };
    const server: PostgresServer = {
      url: urlOf(database),
      port: postmaster.port,
      dataDir: cluster.dataDir,
      stop: () => (shutdown ??= shutDownWith('SIGINT')),
      kill: () => (shutdown ??= shutDownWith('SIGQUIT')),
    };
    try {
      await withClient(urlOf('postgres'), (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`));
    } catch (error) {
      await server.kill();
      throw error;
    }
    return server;
  } catch (error) {
    cluster.remove();
    throw error;
  }
}

/**
 * Creates a database named `<label>_<random>` on the server `serverUrl` points at (any
 * database of it) and returns its URL, so that test files sharing one server never see each
 * other's tables.
 */
export async function createDatabase(serverUrl: string, label = 'test'): Promise<string> {
  // Kept to plain identifier characters so the name needs neither quoting nor URL-encoding.
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(label)) {
    throw new Error(`database label \`${label}\` must be 1–40 lowercase letters, digits or underscores, starting with a letter`);
  }
  const name = `${label}_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

let binDirLookup: Promise<string> | undefined;

/** The directory holding initdb and postgres, installing them first if need be (once per process). */
function serverBinDir(): Promise<string> {
  binDirLookup ??= run('bash', [repoPath('scripts', 'ensure-postgres.sh')], { maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout }) => stdout.trim().split('\n').at(-1) ?? '',
    (error: unknown) => {
      const failure = error as Error & { stderr?: string };
      throw new Error(`scripts/ensure-postgres.sh found no PostgreSQL server and could not install one:\n${tail(failure.stderr || failure.message)}`);
    },
  );
  return binDirLookup;
}

/** The OS account the server runs as, when it cannot be the current one. */
interface ServerAccount {
  readonly uid: number;
  readonly gid: number;
}

const FALLBACK_ACCOUNT = 'adec-postgres';

/**
 * `undefined` when not root: the server runs as the current user. initdb and postgres refuse
 * to run as root, so as root it is Debian's `postgres` account, or a system account of our
 * own where no package made one.
 */
async function serverAccount(): Promise<ServerAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = (await accountIds('postgres')) ?? (await accountIds(FALLBACK_ACCOUNT));
  if (existing !== undefined) return existing;
  try {
    await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', FALLBACK_ACCOUNT]);
  } catch (error) {
    // Another test process may have created it in the meantime; only a missing account is fatal.
    const created = await accountIds(FALLBACK_ACCOUNT);
    if (created !== undefined) return created;
    throw new Error(`cannot create the system account \`${FALLBACK_ACCOUNT}\` to run postgres as (it refuses to run as root): ${(error as Error).message}`);
  }
  const created = await accountIds(FALLBACK_ACCOUNT);
  if (created === undefined) throw new Error(`useradd succeeded but \`${FALLBACK_ACCOUNT}\` has no uid`);
  return created;
}

async function accountIds(name: string): Promise<ServerAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * Spawn options that run a binary as `account`, from `cwd` (one the account can enter; the
 * test's may not be). Node sets the uid and gid in the child itself, dropping root's
 * supplementary groups, rather than going through `runuser`: runuser stays between us and
 * postgres, and a SIGKILL to it orphans the server (seen with util-linux 2.38), so our signals
 * must reach the postmaster itself.
 */
function asAccount(account: ServerAccount | undefined, cwd: string) {
  return account === undefined ? { cwd } : { cwd, uid: account.uid, gid: account.gid };
}

/** One server's files, whom it runs as, and how to get rid of them. */
interface Cluster {
  readonly binDir: string;
  /** The mkdtemp directory holding the other two. */
  readonly baseDir: string;
  readonly dataDir: string;
  /** postgres always opens a Unix socket too; it goes here rather than in the shared /run. */
  readonly socketDir: string;
  readonly account: ServerAccount | undefined;
  /** Removes the directories; the postmaster must have exited. Safe to call twice. */
  remove(): void;
}

function createClusterDir(binDir: string, account: ServerAccount | undefined): Cluster {
  const baseDir = mkdtempSync(join(tmpdir(), 'adec-postgres-'));
  const dataDir = join(baseDir, 'data');
  const socketDir = join(baseDir, 'socket');
  // Started before anything is in the directory, so that even a test process killed during
  // initdb leaves nothing behind.
  const watchdog = startWatchdog(baseDir, dataDir);
  const cluster: Cluster = {
    binDir,
    baseDir,
    dataDir,
    socketDir,
    account,
    remove() {
      watchdog.kill('SIGKILL');
      rmSync(baseDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  try {
    mkdirSync(socketDir);
    if (account !== undefined) {
      chownSync(baseDir, account.uid, account.gid);
      chownSync(socketDir, account.uid, account.gid);
    }
  } catch (error) {
    cluster.remove();
    throw error;
  }
  return cluster;
}

/**
 * A shell that waits for EOF on a pipe from this process, which comes when this process ends
 * for any reason (normal exit without `stop()`, uncaught error, SIGKILL, OOM kill). It then
 * shuts down the postmaster named in `postmaster.pid` (SIGQUIT, immediate mode: no checkpoint,
 * but postgres reaps its children and frees its shared memory, which a SIGKILL would leak) and
 * removes the directory. A `process.on('exit')` hook would miss SIGKILL and fatal signals.
 * It runs in its own process group so that a Ctrl-C at the terminal does not take it down with
 * the tests. Limits: nothing cleans up when the watchdog dies together with this process
 * (a SIGKILL to its process group as well, the machine going down), and an initdb still
 * running when this process dies is not stopped (it fails once its directory is removed).
 */
function startWatchdog(baseDir: string, dataDir: string): ChildProcess {
  const script = [
    'read -r _ || :',
    'pid=$(head -n 1 "$2/postmaster.pid" 2>/dev/null)',
    // The pid file outlives a crashed postmaster; its number may since belong to another process.
    'if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]; then',
    '  kill -QUIT "$pid"',
    '  n=0; while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done',
    '  kill -KILL "$pid" 2>/dev/null',
    'fi',
    'rm -rf "$1"',
  ].join('\n');
  const watchdog = spawn('/bin/sh', ['-c', script, 'adec-postgres-watchdog', baseDir, dataDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  // Neither it nor its pipe may keep this process alive: its whole point is to outlive it.
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return watchdog;
}

async function initCluster({ binDir, baseDir, dataDir, account }: Cluster): Promise<void> {
  const args = ['-D', dataDir, '--auth=trust', '-U', SUPERUSER, '--encoding=UTF8', '--locale=C', '--no-instructions'];
  try {
    await run(join(binDir, 'initdb'), args, asAccount(account, baseDir));
  } catch (error) {
    const { stderr, message } = error as Error & { stderr?: string };
    throw new Error(`initdb failed for ${dataDir}:\n${tail(stderr || message)}`);
  }
}

interface Postmaster {
  readonly port: number;
  /** Signals the postmaster, SIGKILLs it if it outlives the grace period, and waits for it. */
  shutDown(signal: NodeJS.Signals): Promise<void>;
}

/** Starts postgres on a free loopback port, retrying when another process takes the port first. */
async function startPostmaster(cluster: Cluster): Promise<Postmaster> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await launchPostmaster(cluster, await freeLoopbackPort());
    if (outcome.ok) return outcome.postmaster;
    if (!outcome.portTaken || attempt === PORT_ATTEMPTS) throw new Error(outcome.message);
  }
}

type LaunchOutcome = { ok: true; postmaster: Postmaster } | { ok: false; portTaken: boolean; message: string };

async function launchPostmaster({ binDir, baseDir, dataDir, socketDir, account }: Cluster, port: number): Promise<LaunchOutcome> {
  // The settings the audit store's durability rests on are spelled out rather than left to
  // defaults; shared_buffers is kept small because a test run may start several servers.
  const args = ['-D', dataDir, '-h', HOST, '-p', String(port), '-k', socketDir];
  for (const setting of ['fsync=on', 'synchronous_commit=on', 'max_connections=100', 'shared_buffers=64MB']) args.push('-c', setting);
  // Spawned directly, not daemonised through pg_ctl, so that this process owns it and its
  // signals reach it.
  const child = spawn(join(binDir, 'postgres'), args, { ...asAccount(account, baseDir), stdio: ['ignore', 'pipe', 'pipe'] });
  const log = new LogTail(child);
  if (child.pid === undefined) {
    // binDir was checked to hold an executable postgres, so this is a broken install.
    await new Promise((resolve) => child.once('error', resolve));
    return { ok: false, portTaken: false, message: `cannot spawn ${join(binDir, 'postgres')}: ${log.text()}` };
  }
  const postmaster: Postmaster = {
    port,
    async shutDown(signal) {
      child.ref();
      if (!isRunning(child)) return;
      child.kill(signal);
      if (await exited(child, STOP_GRACE_MS)) return;
      child.kill('SIGKILL');
      await exited(child, STOP_GRACE_MS);
    },
  };

  const url = `postgres://${SUPERUSER}@${HOST}:${port}/postgres`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await servesDataDir(url, dataDir))) {
    if (!isRunning(child)) {
      const text = log.text();
      return { ok: false, portTaken: text.includes('Address already in use'), message: `postgres exited before accepting connections (${describeExit(child)}); its log ends:\n${tail(text)}` };
    }
    if (Date.now() > deadline) {
      await postmaster.shutDown('SIGQUIT');
      return { ok: false, portTaken: false, message: `postgres did not accept connections within ${READY_TIMEOUT_MS} ms; its log ends:\n${tail(log.text())}` };
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  // A server a test forgets to stop must not hold the test process open; the watchdog shuts
  // it down when the process exits. shutDown takes the reference back while it waits.
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as Socket | null)?.unref();
  return { ok: true, postmaster };
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function describeExit(child: ChildProcess): string {
  return child.signalCode !== null ? `signal ${child.signalCode}` : `exit code ${child.exitCode}`;
}

/** Whether `child` exits within `ms`; true at once if it already has. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Whether the server at `url` accepts connections and is the one serving `dataDir`: when
 * another server has taken our port, ours is about to exit and must not be mistaken for ready.
 */
async function servesDataDir(url: string, dataDir: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  // While starting up, postgres answers with an error rather than a refusal; both mean "not yet".
  client.on('error', () => {});
  try {
    await client.connect();
  } catch {
    // A client whose connect failed has already closed its socket.
    return false;
  }
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0]?.data_directory === dataDir;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The end of the server's output. It is read for the whole life of the server, since a pipe
 * nobody drains fills up and blocks postgres on its next log line.
 */
class LogTail {
  private static readonly LIMIT = 64 * 1024;
  private buffered = '';
  private spawnError: Error | undefined;

  constructor(child: ChildProcess) {
    const append = (chunk: Buffer) => {
      this.buffered = (this.buffered + chunk.toString('utf8')).slice(-LogTail.LIMIT);
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    child.on('error', (error) => {
      this.spawnError = error;
    });
  }

  text(): string {
    return this.spawnError === undefined ? this.buffered : `${this.buffered}${this.spawnError.message}\n`;
  }
}

/** The last lines of a log, enough to show why a server would not start. */
function tail(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
