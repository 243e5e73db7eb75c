/**
 * The `adec-language-server` process: LSP over stdio (the default, and what `--stdio`
 * asks for), or over `--node-ipc`, `--socket=<port>` or `--pipe=<name>` as
 * vscode-languageserver reads them from the command line.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server.js';

export function main(argv: readonly string[] = process.argv.slice(2)): void {
  if (argv.includes('--version')) {
    process.stdout.write('adec-language-server 0.1.0\n');
    return;
  }
  const otherTransport = argv.some((a) => a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'));
  const connection = otherTransport ? createConnection(ProposedFeatures.all) : createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  // The protocol owns stdout: anything else written there would corrupt it.
  console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(' '));
  console.info = console.log;
  console.warn = (...args: unknown[]) => connection.console.warn(args.map(String).join(' '));
  console.error = (...args: unknown[]) => connection.console.error(args.map(String).join(' '));
  // A bug must not take the editor's server down with it: log it and carry on.
  process.on('uncaughtException', (error) => connection.console.error(`uncaught: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${String(reason)}`));
  startServer(connection);
}
