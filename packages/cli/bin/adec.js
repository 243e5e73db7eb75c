#!/usr/bin/env node
// The adec launcher. isolated-vm, which runs the decisions of `eval`, `explain`, `test`, `serve` and `mcp`,
// requires --no-node-snapshot on Node 20+; without its startup snapshot Node takes about 0.1 s
// longer to start. So those commands run in a Node process started with the flag, and the
// others (build, check, the key and trust commands) start without it. The flag can only be
// given when a process starts (Node has no exec), so the launcher and its child live and die
// together (packages/server/README.md "Stopping"):
// - the child has the launcher's standard input and output (`adec mcp` speaks its protocol
//   through them), and every signal that stops a process is passed on to it, so `adec serve`
//   stops gracefully; the launcher then ends as the child did (its exit code or its signal);
// - the child watches the launcher through an IPC channel, which the kernel closes whenever the
//   launcher ends, SIGKILL included (a signal no process can catch or pass on): the child then
//   stops as if sent SIGTERM, so no server is left running, holding its port, under PID 1.
import { spawn } from 'node:child_process';

const SANDBOX_COMMANDS = new Set(['eval', 'explain', 'select', 'test', 'serve', 'mcp']);
const FLAG = '--no-node-snapshot';
// Every signal a terminal or a supervisor sends to stop a process (SIGKILL and SIGSTOP cannot
// be caught; SIGUSR1 is Node's debugger's).
const FORWARDED = process.platform === 'win32' ? ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

if (SANDBOX_COMMANDS.has(process.argv[2] ?? '') && !process.execArgv.includes(FLAG)) {
  const child = spawn(process.execPath, [FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  // The channel only tells the child that the launcher is gone: it must not keep the launcher alive.
  child.channel?.unref();
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
  const launcherGone = watchLauncher();
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
  launcherGone?.stopWatching();
}

/**
 * In the launcher's child: when the launcher is gone (its IPC channel closed), this process is
 * sent SIGTERM, which `adec serve` answers by stopping gracefully and every other command by
 * ending. Undefined when no launcher started this process.
 */
function watchLauncher() {
  if (process.channel === undefined) return undefined;
  const gone = () => process.kill(process.pid, 'SIGTERM');
  if (!process.connected) {
    gone();
    return undefined;
  }
  process.once('disconnect', gone);
  return {
    /** The command is over: the channel no longer keeps this process alive. */
    stopWatching() {
      process.removeListener('disconnect', gone);
      process.channel?.unref();
    },
  };
}
