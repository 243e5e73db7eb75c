#!/usr/bin/env -S node --no-node-snapshot
// The adec launcher. --no-node-snapshot is required by isolated-vm on Node 20+.
import { main } from '../dist/index.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  readStdin: async () => {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text;
  },
});
