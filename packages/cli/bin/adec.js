#!/usr/bin/env node
// The adec launcher. isolated-vm, which runs the decisions of `eval`, `explain`, `test`, `serve` and `mcp`,
// requires --no-node-snapshot on Node 20+; without its startup snapshot Node takes about 0.1 s
// longer to start. So those commands run in a Node process started with the flag (signals
// passed on to it, so `adec serve` stops gracefully; it has the launcher's standard input and
// output, so `adec mcp` speaks its protocol through them), and the others (build, check, the key
// and trust commands) start without it.
import { spawn } from 'node:child_process';

const SANDBOX_COMMANDS = new Set(['eval', 'explain', 'select', 'test', 'serve', 'mcp']);
const FLAG = '--no-node-snapshot';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

if (SANDBOX_COMMANDS.has(process.argv[2] ?? '') && !process.execArgv.includes(FLAG)) {
  const child = spawn(process.execPath, [FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    throw error;
  });
  child.on('exit', (code, signal) => {
    for (const forwarded of FORWARDED) process.removeAllListeners(forwarded);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
} else {
  const { main } = await import('../dist/index.js');
  process.exitCode = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    readStdin: async (maxBytes) => {
      const chunks = [];
      let length = 0;
      for await (const chunk of process.stdin) {
        chunks.push(chunk);
        length += chunk.length;
        // An endless or huge input is refused by its size, not read into memory first.
        if (length > maxBytes) break;
      }
      return Buffer.concat(chunks);
    },
  });
}
