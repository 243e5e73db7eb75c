#!/usr/bin/env node
// The adec launcher. isolated-vm, which runs the decisions of `eval` and `test`, requires
// --no-node-snapshot on Node 20+; without its startup snapshot Node takes about 0.1 s longer to
// start. So those two commands run in a Node process started with the flag, and the others
// (build, check, the key and trust commands) start without it.
import { spawnSync } from 'node:child_process';

const SANDBOX_COMMANDS = new Set(['eval', 'test']);
const FLAG = '--no-node-snapshot';

if (SANDBOX_COMMANDS.has(process.argv[2] ?? '') && !process.execArgv.includes(FLAG)) {
  const child = spawnSync(process.execPath, [FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  if (child.error !== undefined) throw child.error;
  if (child.signal !== null) process.kill(process.pid, child.signal);
  process.exitCode = child.status ?? 1;
} else {
  const { main } = await import('../dist/index.js');
  process.exitCode = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks = [];
      for await (const chunk of process.stdin) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
  });
}
