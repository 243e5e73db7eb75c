import { openAuditStore, verifyChains, type ChainReport } from '@adec/audit';
import { choiceOption, parseOptions } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { resolveServeSettings } from '../serve/serve-settings.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec audit verify [--audit <file|postgres://…>] [--tenant <org>] [--format text|json]

Walks every tenant's hash chain in the audit store (default: ADEC_AUDIT, else adec-audit.db)
from its anchor to its head and names the first broken link of each: a record changed
(RECORD_ALTERED), moved (COLUMN_MISMATCH), removed (SEQ_GAP, HEAD_MISMATCH) or reordered
(LINK_BROKEN), or an anchor moved (ANCHOR_MISMATCH). Prints each chain's head hash: keep them
elsewhere to detect a rewrite of the whole database.
Exit 0 when every chain verifies, 1 when one does not or the store cannot be read.`;

/** `adec audit verify`: every chain of the audit store, checked. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, values } = parseOptions(args, usage, { audit: { type: 'string' }, tenant: { type: 'string' }, format: { type: 'string', default: 'text' } }, ['verify']);
  if (positionals[0] !== 'verify') throw new UsageError(`unknown audit command \`${positionals[0]}\`: expected verify\n\n${usage}`);
  const format = choiceOption(values, 'format', ['text', 'json'] as const, usage);
  const location = auditLocation(values['audit'], io);
  const opened = await openAuditStore(location);
  if (!opened.ok) {
    io.stderr.write(`adec audit: ${opened.code}: ${opened.message}\n`);
    return EXIT.inputErrors;
  }
  try {
    const result = await verifyChains(opened.store, typeof values['tenant'] === 'string' ? { tenant: values['tenant'] } : {});
    if (!result.ok) {
      io.stderr.write(`adec audit: ${result.code}: ${result.message}\n`);
      return EXIT.inputErrors;
    }
    if (format === 'json') io.stdout.write(`${JSON.stringify({ valid: result.valid, chains: result.chains }, null, 2)}\n`);
    else io.stdout.write(textReport(result.chains));
    return result.valid ? EXIT.ok : EXIT.inputErrors;
  } finally {
    await opened.store.close();
  }
}

/** The store `adec serve` would use: --audit, then ADEC_AUDIT, then its default. */
function auditLocation(flag: string | boolean | undefined, io: CliIo): string {
  const settings = resolveServeSettings({ flags: { audit: flag, modules: '-', trust: '-', jwks: '-', issuer: '-', audience: '-' }, env: { ADEC_AUDIT: process.env['ADEC_AUDIT'] }, cwd: io.cwd });
  if (!settings.ok) throw new UsageError(`${settings.problems.join('\n')}\n\n${usage}`);
  return settings.settings.audit;
}

function textReport(chains: readonly ChainReport[]): string {
  if (chains.length === 0) return 'the audit store holds no records\n';
  const lines = chains.map((chain) =>
    chain.problem === null
      ? `ok      ${chain.tenant}: ${chain.records} record${chain.records === 1 ? '' : 's'}, head ${chain.head.seq} ${chain.head.hash}`
      : `BROKEN  ${chain.tenant}: ${chain.problem.code} at record ${chain.problem.seq}: ${chain.problem.message}`,
  );
  const broken = chains.filter((chain) => chain.problem !== null).length;
  lines.push(broken === 0 ? `all ${chains.length} chains verify` : `${broken} of ${chains.length} chains are broken`);
  return `${lines.join('\n')}\n`;
}
