import { lstat, mkdir, open } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { generateKey, KEY_FORMATS, keyFileNames } from '@adec/runtime';
import { choiceOption, parseOptions, requiredOption } from '../bundle-command.js';
import { EXIT, type CliIo, type ExitCode } from '../io.js';
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
  for (const file of [privateFile, publicFile]) {
    if (await exists(join(outDir, file))) {
      io.stderr.write(`adec keygen: \`${shown(file)}\` already exists: refusing to overwrite it\n`);
      return EXIT.inputErrors;
    }
  }

  const key = generateKey(format);
  try {
    await mkdir(outDir, { recursive: true });
    // 'wx' fails rather than overwrite, even if a file appeared since the check above.
    await writeNewFile(join(outDir, privateFile), key.privateText, 0o600);
    await writeNewFile(join(outDir, publicFile), key.publicText, 0o644);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    io.stderr.write(`adec keygen: cannot write the key files in \`${outDisplay}\` (${code ?? (error as Error).message}${path !== undefined ? ` at ${path}` : ''})\n`);
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

/** Whether anything is at `path`, a dangling symbolic link included. */
async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Creates `path` with `mode` exactly (not widened or narrowed by the umask) and writes `text`. */
async function writeNewFile(path: string, text: string, mode: number): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.chmod(mode);
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
