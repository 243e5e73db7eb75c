/**
 * `adec serve` as a deployment runs it: a child process started from the CLI with files on
 * disk (bundles signed and approved, a trust file, a JWK set), its URL read from its ready log
 * line. For tests that stop it with signals, kill it, and restart it on the same audit store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath } from '../../../test/support/repo.js';
import { asTestBundle, buildFixture, publish, testKeys, type TestBundle, type TestKeys } from '../../../test/support/runtime.js';
import { AUDIENCE, ISSUER, tokenIssuer, type TokenIssuer } from './service-fixture.js';

export interface Deployment {
  /** The serve flags naming the deployment's files (without --audit). */
  readonly args: readonly string[];
  readonly issuer: TokenIssuer;
  /** The bundle published, and the keys it was signed and approved with (to publish another). */
  readonly bundle: TestBundle;
  readonly keys: TestKeys;
  readonly modules: string;
}

/** Writes a deployment of the benefits world into `dir`. */
export async function prepareDeployment(dir: string): Promise<Deployment> {
  const keys = testKeys();
  const bundle = asTestBundle(await buildFixture('examples/benefits'));
  publish(bundle, join(dir, 'modules'), keys);
  mkdirSync(join(dir, 'keys'), { recursive: true });
  const pem = (key: typeof keys.signer) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  writeFileSync(join(dir, 'keys/ci.pub.pem'), pem(keys.signer));
  writeFileSync(join(dir, 'keys/operator.pub.pem'), pem(keys.approver));
  writeFileSync(join(dir, 'trust.json'), JSON.stringify({ signing_keys: ['keys/ci.pub.pem'], approval_keys: ['keys/operator.pub.pem'] }));
  const issuer = await tokenIssuer();
  writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [issuer.jwk] }));
  return {
    issuer,
    bundle,
    keys,
    modules: join(dir, 'modules'),
    args: ['--modules', join(dir, 'modules'), '--trust', join(dir, 'trust.json'), '--jwks', join(dir, 'jwks.json'), '--issuer', ISSUER, '--audience', AUDIENCE, '--port', '0'],
  };
}

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Every log line the service wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote on standard error so far. */
  stderr(): string;
}

/** Services still running: a test that fails or times out before it stops one must not leave it behind. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `adec serve` and waits until it is ready: the node process itself, no launcher in
 * between, or, with `launcher`, as `adec serve` is run (bin/adec.js starts the server as its
 * child; `child` is then the launcher).
 */
export function startServeProcess(args: readonly string[], options: { readonly launcher?: boolean; /** In a process group of its own, as a terminal starts a command. */ readonly ownGroup?: boolean } = {}): Promise<ServeProcess> {
  const node = options.launcher === true ? [] : ['--no-node-snapshot'];
  const child = spawn(process.execPath, [...node, repoPath('packages/cli/bin/adec.js'), 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownGroup === true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': only then has every line the process logged been read from its stdout.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry['msg'] === 'adec serve is ready') resolve({ url: String(entry['url']), child, logs, exited, stderr: () => stderr });
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`adec serve exited (${code ?? signal}) before it was ready: ${stderr}`)));
  });
}
