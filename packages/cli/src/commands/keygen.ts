import { basename, join, resolve } from 'node:path';
import { generateKey, KEY_FORMATS, keyFileNames } from '@adec/runtime';
import { choiceOption, parseOptions, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
import { writeOutputFiles } from '../output-files.js';
import { UsageError } from '../usage-error.js';

export const usage = `usage: adec keygen --out <dir> [--name <name>] [--format jwk|pem]

Generates an Ed25519 key pair for \`adec sign\` (CI) or \`adec approve\` (operators) and writes
to <dir> (created if needed):
  <name>.key.jwk  the private key (mode 0600: keep it secret)
  <name>.pub.jwk  the public key, to list in a trust file
(.key.pem / .pub.pem with --format pem). <name> defaults to adec. Existing files are never
overwritten. Prints the key id: the RFC 7638 thumbprint of the public key.`;

/** `adec keygen`: a new Ed25519 key pair in two files, never over existing ones. */
export async function run(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values } = parseOptions(
    args,
    usage,
    { out: { type: 'string' }, name: { type: 'string', default: 'adec' }, format: { type: 'string', default: 'jwk' } },
    [],
  );
  const outDisplay = requiredOption(values, 'out', usage);
  const name = requiredOption(values, 'name', usage);
  if (name !== basename(name) || name === '.' || name === '..') {
    throw new UsageError(`invalid --name \`${name}\`: expected a file name, not a path\n\n${usage}`);
  }
  const format = choiceOption(values, 'format', KEY_FORMATS, usage);

  const { privateFile, publicFile } = keyFileNames(name, format);
  const outDir = resolve(io.cwd, outDisplay);
  const shown = (file: string) => join(outDisplay, file);
  const key = generateKey(format);
  // Never over an existing file, even one that appears while the keys are written.
  const problem = await writeOutputFiles(
    outDir,
    outDisplay,
    [
      { name: privateFile, content: key.privateText, mode: 0o600 },
      { name: publicFile, content: key.publicText, mode: 0o644 },
    ],
    { overwrite: false },
  );
  if (problem !== undefined) {
    io.stderr.write(`adec keygen: ${problem.message}\n`);
    return EXIT.inputErrors;
  }
  io.stdout.write(
    [
      `generated Ed25519 key ${key.keyId}`,
      `  private  ${shown(privateFile)} (mode 0600: keep it secret)`,
      `  public   ${shown(publicFile)}`,
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}
