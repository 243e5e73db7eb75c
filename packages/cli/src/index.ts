/**
 * @adec/cli — the `adec` command. One file per command under commands/; this file only
 * dispatches and turns usage errors into exit code 2.
 */
import { COMPILER_VERSION } from '@adec/compiler';
import { approveCommand, approveUsage } from './commands/approve.js';
import { buildCommand, buildUsage } from './commands/build.js';
import { checkCommand, checkUsage } from './commands/check.js';
import { evalCommand, evalUsage } from './commands/eval.js';
import { keygenCommand, keygenUsage } from './commands/keygen.js';
import { signCommand, signUsage } from './commands/sign.js';
import { testCommand, testUsage } from './commands/test.js';
import { verifyCommand, verifyUsage } from './commands/verify.js';
import { EXIT, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

export type { CliIo, ExitCode, OutputStream } from './io.js';
export { EXIT } from './io.js';

type Command = (args: readonly string[], io: CliIo) => Promise<ExitCode>;

interface CommandEntry {
  readonly run: Command;
  readonly summary: string;
  readonly usage: string;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: { run: checkCommand, usage: checkUsage, summary: 'parse and type-check a world, report diagnostics' },
  build: { run: buildCommand, usage: buildUsage, summary: 'build a world into a content-hashed bundle + manifest' },
  keygen: { run: keygenCommand, usage: keygenUsage, summary: 'generate an Ed25519 key pair (JWK or PEM) for signing or approval' },
  sign: { run: signCommand, usage: signUsage, summary: "sign a bundle's manifest (writes signature.json)" },
  approve: { run: approveCommand, usage: approveUsage, summary: "approve a bundle's module hash with an operator key (writes approval.json)" },
  verify: { run: verifyCommand, usage: verifyUsage, summary: "check a bundle's hash, signature and approval against a trust file" },
  test: { run: testCommand, usage: testUsage, summary: "run a world's golden tests and report rule coverage" },
  eval: { run: evalCommand, usage: evalUsage, summary: 'decide one request against a bundle and print the decision as JSON' },
};

export const usage = `usage: adec <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(8)} ${summary}`)
  .join('\n')}

run \`adec <command> --help\` for a command's options.
exit codes: 0 success, 1 the input has errors, 2 usage error`;

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(`${usage}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`adec ${COMPILER_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(`adec: unknown command \`${name}\`\n\n${usage}\n`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`adec ${name}: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
