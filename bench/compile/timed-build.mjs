// Runs `adec build <world> --out <dir>` in this process, through the CLI's own entry point as
// the launcher does for `build` (in a Node started without flags), and reports its exit code,
// peak memory and the time of each phase. The phases are read off the CLI's progress lines,
// which it prints to a terminal: stderr is given here as a terminal that records when each
// line arrives. The parent times the whole process, Node start-up included, as a user waits.
import { main } from '../../packages/cli/dist/index.js';

const [world, out] = process.argv.slice(2);
const phases = {};
let current = 'load';
let startedAt = performance.now();
const mark = (phase) => {
  const now = performance.now();
  phases[current] = (phases[current] ?? 0) + (now - startedAt);
  current = phase;
  startedAt = now;
};

let stderr = '';
const PROGRESS = /^\x1b\[2m(\w+)…\x1b\[0m\n$/;
const code = await main(['build', world, '--out', out], {
  stdout: { write: () => true },
  stderr: {
    isTTY: true,
    write: (text) => {
      const phase = PROGRESS.exec(text)?.[1];
      if (phase !== undefined) mark(phase === 'manifest' ? 'manifest and write' : phase);
      else stderr += text;
      return true;
    },
  },
  cwd: process.cwd(),
});
mark(undefined);
const warnings = Number(/(\d+) warnings?\n*$/.exec(stderr)?.[1] ?? 0);
process.stdout.write(`${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS, phases, warnings, stderr: code === 0 ? '' : stderr.slice(0, 2000) })}\n`);
