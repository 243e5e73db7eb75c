/**
 * @adec/cli — the `adec` command. One file per command under commands/, each exporting `run`
 * and `usage`; this file only dispatches (loading the command's module on use) and turns usage
 * errors into exit code 2.
 */
import { COMPILER_VERSION } from '@adec/compiler';
import { EXIT, type CliIo, type ExitCode } from './io.js';
import { UsageError } from './usage-error.js';

export type { CliIo, ExitCode, OutputStream } from './io.js';
export { EXIT } from './io.js';

type Command = (args: readonly string[], io: CliIo) => Promise<ExitCode>;

interface CommandModule {
  readonly run: Command;
  readonly usage: string;
}

interface CommandEntry {
  readonly summary: string;
  /**
   * The command's module, loaded when the command runs: `adec build` never loads the
   * runtime and its sandbox, and every command starts without the others' modules.
   */
  readonly load: () => Promise<CommandModule>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  init: {
    summary: 'scaffold a small world with tests in an empty or new directory',
    load: () => import('./commands/init.js'),
  },
  check: {
    summary: 'parse and type-check a world, report diagnostics',
    load: () => import('./commands/check.js'),
  },
  fmt: {
    summary: 'rewrite .adec files in the canonical layout (--check for CI)',
    load: () => import('./commands/fmt.js'),
  },
  build: {
    summary: 'build a world into a content-hashed bundle + manifest',
    load: () => import('./commands/build.js'),
  },
  keygen: {
    summary: 'generate an Ed25519 key pair (JWK or PEM) for signing or approval',
    load: () => import('./commands/keygen.js'),
  },
  sign: {
    summary: "sign a bundle's manifest (writes signature.json)",
    load: () => import('./commands/sign.js'),
  },
  approve: {
    summary: "approve a bundle's module hash with an operator key (writes approval.json)",
    load: () => import('./commands/approve.js'),
  },
  verify: {
    summary: "check a bundle's hash, signature and approval against a trust file",
    load: () => import('./commands/verify.js'),
  },
  deploy: {
    summary: 'put a signed, approved bundle into the module directory `adec serve` reads',
    load: () => import('./commands/deploy.js'),
  },
  test: {
    summary: "run a world's golden tests and report rule coverage",
    load: () => import('./commands/test.js'),
  },
  eval: {
    summary: 'decide one request against a bundle and print the decision as JSON',
    load: () => import('./commands/eval.js'),
  },
  explain: {
    summary: 'decide one request against a world and explain it, rule by rule and sub-condition by sub-condition',
    load: () => import('./commands/explain.js'),
  },
  select: {
    summary: 'run the ADE selection cycle on a bundle and print the DecisionResponse as JSON',
    load: () => import('./commands/select.js'),
  },
  'skill-contract': {
    summary: "print a skill's execution contract (inputs, outputs, checks, limits, fallbacks) from a bundle or world",
    load: () => import('./commands/skill-contract.js'),
  },
  serve: {
    summary: 'run the decision service (HTTP, JWT auth, durable hash-chained audit)',
    load: () => import('./commands/serve.js'),
  },
  mcp: {
    summary: 'serve the decide operation as an MCP tool over stdio, for a local agent',
    load: () => import('./commands/mcp.js'),
  },
  audit: {
    summary: 'verify the audit store\'s hash chains (`adec audit verify`)',
    load: () => import('./commands/audit.js'),
  },
  trace: {
    summary: "verify a selection's signed reasoning trace with the service's public key (`adec trace verify`)",
    load: () => import('./commands/trace.js'),
  },
  token: {
    summary: 'mint a development JWT for the decision service',
    load: () => import('./commands/token.js'),
  },
};

/** The width of the command names' column in the usage text: the longest name's. */
const COMMAND_COLUMN = Math.max(...Object.keys(COMMANDS).map((name) => name.length));

export const usage = `usage: adec <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(COMMAND_COLUMN)} ${summary}`)
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
  const entry = COMMANDS[name];
  if (entry === undefined) {
    io.stderr.write(`adec: unknown command \`${name}\`\n\n${usage}\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
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
