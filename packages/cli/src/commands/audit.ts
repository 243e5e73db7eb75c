import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openAuditStore, readAnchors, signedAnchors, verifyChains, type AuditStore, type ChainReport, type SignedAnchor } from '@adec/audit';
import { readKeyFile, readPrivateKeyFile } from '@adec/runtime';
import { choiceOption, parseOptions, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { resolveServeSettings } from '../serve/serve-settings.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec audit verify [--audit <file|postgres://…>] [--tenant <org>] [--anchors <file> --anchor-key <key>] [--format text|json]
       adec audit anchor --anchor-key <private key> [--audit <file|postgres://…>]

verify walks every tenant's hash chain in the audit store (default: ADEC_AUDIT, else
adec-audit.db) from its anchor to its head and names the first broken link of each: a record
changed (RECORD_ALTERED), moved (COLUMN_MISMATCH), removed (SEQ_GAP, HEAD_MISMATCH), reordered
(LINK_BROKEN) or inserted past the head (BEYOND_HEAD), or an anchor moved (ANCHOR_MISMATCH).
With --anchors, a file of signed anchors (written by adec audit anchor or adec serve --anchors)
checked with --anchor-key (the signing key, or its public key): every anchored record must still
be there, unchanged; a chain removed, truncated or rolled back past an anchor is
ANCHORED_RECORD_MISSING at its first missing position, or ANCHORED_RECORD_CHANGED.
Exit 0 when every chain verifies, 1 when one does not, a line of the anchors file does not
verify, or the store cannot be read.

anchor prints one signed anchor per tenant (JSON lines): tenant, chain, the head's position and
hash, the time, signed with the Ed25519 --anchor-key (ADEC_ANCHOR_KEY; from adec keygen). Keep
them away from the store.`;

/** `adec audit verify` and `adec audit anchor`. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, values } = parseOptions(
    args,
    usage,
    { audit: { type: 'string' }, tenant: { type: 'string' }, anchors: { type: 'string' }, 'anchor-key': { type: 'string' }, format: { type: 'string', default: 'text' } },
    ['command'],
  );
  const command = positionals[0];
  if (command !== 'verify' && command !== 'anchor') throw new UsageError(`unknown audit command \`${command ?? ''}\`: expected verify or anchor\n\n${usage}`);
  const format = choiceOption(values, 'format', ['text', 'json'] as const, usage);
  const keyPath = typeof values['anchor-key'] === 'string' ? values['anchor-key'] : process.env['ADEC_ANCHOR_KEY'];
  const location = auditLocation(values['audit'], io);
  if (command === 'anchor') return withStore(location, io, (store) => anchor(store, requiredKey(keyPath), io));
  const anchors = typeof values['anchors'] === 'string' ? await readAnchorFile(values['anchors'], requiredKey(keyPath), io) : [];
  if (anchors === undefined) return EXIT.inputErrors;
  const tenant = typeof values['tenant'] === 'string' ? values['tenant'] : undefined;
  return withStore(location, io, (store) => verify(store, { ...(tenant !== undefined && { tenant }), anchors }, format, io));
}

function requiredKey(path: string | undefined): string {
  return requiredOption({ 'anchor-key': path }, 'anchor-key', usage);
}

async function withStore(location: string, io: CliIo, work: (store: AuditStore) => Promise<ExitCode>): Promise<ExitCode> {
  const opened = await openAuditStore(location);
  if (!opened.ok) {
    io.stderr.write(`adec audit: ${opened.code}: ${opened.message}\n`);
    return EXIT.inputErrors;
  }
  try {
    return await work(opened.store);
  } finally {
    await opened.store.close();
  }
}

async function verify(store: AuditStore, options: { readonly tenant?: string; readonly anchors: readonly SignedAnchor[] }, format: 'text' | 'json', io: CliIo): Promise<ExitCode> {
  const result = await verifyChains(store, options);
  if (!result.ok) {
    io.stderr.write(`adec audit: ${result.code}: ${result.message}\n`);
    return EXIT.inputErrors;
  }
  if (format === 'json') io.stdout.write(`${JSON.stringify({ valid: result.valid, chains: result.chains, anchors: options.anchors.length }, null, 2)}\n`);
  else io.stdout.write(textReport(result.chains, options.anchors.length));
  return result.valid ? EXIT.ok : EXIT.inputErrors;
}

async function anchor(store: AuditStore, keyPath: string, io: CliIo): Promise<ExitCode> {
  const key = await readPrivateKeyFile(keyPath, io.cwd);
  if (!key.ok) {
    io.stderr.write(`adec audit: ${key.code}: ${key.message}\n`);
    return EXIT.inputErrors;
  }
  const anchors = await signedAnchors(store, { key: key.key, keyId: key.keyId });
  if (!anchors.ok) {
    io.stderr.write(`adec audit: ${anchors.code}: ${anchors.message}\n`);
    return EXIT.inputErrors;
  }
  io.stdout.write(anchors.value.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return EXIT.ok;
}

/** The anchors of `path`, every line's signature checked with the key of `keyPath`; undefined (reported) when any line fails. */
async function readAnchorFile(path: string, keyPath: string, io: CliIo): Promise<readonly SignedAnchor[] | undefined> {
  const key = await readKeyFile(keyPath, io.cwd);
  if (!key.ok) {
    io.stderr.write(`adec audit: ${key.code}: ${key.message}\n`);
    return undefined;
  }
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, path), 'utf8');
  } catch (error) {
    io.stderr.write(`adec audit: cannot read --anchors ${path}: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}\n`);
    return undefined;
  }
  const read = readAnchors(text, key.key, key.keyId);
  if (!read.ok) {
    io.stderr.write(`adec audit: ANCHORS_INVALID: ${path} holds lines that are not anchors signed by key ${key.keyId}:\n${read.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    return undefined;
  }
  return read.anchors;
}

/** The store `adec serve` would use: --audit, then ADEC_AUDIT, then its default. */
function auditLocation(flag: string | boolean | undefined, io: CliIo): string {
  const settings = resolveServeSettings({ flags: { audit: flag, modules: '-', trust: '-', jwks: '-', issuer: '-', audience: '-' }, env: { ADEC_AUDIT: process.env['ADEC_AUDIT'] }, cwd: io.cwd });
  if (!settings.ok) throw new UsageError(`${settings.problems.join('\n')}\n\n${usage}`);
  return settings.settings.audit;
}

function textReport(chains: readonly ChainReport[], anchors: number): string {
  if (chains.length === 0) return 'the audit store holds no records\n';
  const lines = chains.map((chain) =>
    chain.problem === null
      ? `ok      ${chain.tenant}: ${chain.records} record${chain.records === 1 ? '' : 's'}, head ${chain.head.seq} ${chain.head.hash}`
      : `BROKEN  ${chain.tenant}: ${chain.problem.code} at record ${chain.problem.seq}: ${chain.problem.message}`,
  );
  const broken = chains.filter((chain) => chain.problem !== null).length;
  lines.push(broken === 0 ? `all ${chains.length} chains verify` : `${broken} of ${chains.length} chains are broken`);
  if (anchors > 0) lines.push(`checked against ${anchors} signed anchor${anchors === 1 ? '' : 's'}`);
  return `${lines.join('\n')}\n`;
}
