// Runs one `adec build` in this process and reports its peak memory, so the parent can
// time the whole process (node start-up included, as a user waits for it).
import { main } from '../../packages/cli/dist/index.js';

const [world, out] = process.argv.slice(2);
const sink = { write: () => true, isTTY: false };
let stderr = '';
const code = await main(['build', world, '--out', out], {
  stdout: sink,
  stderr: { write: (text) => (stderr += text), isTTY: false },
  cwd: process.cwd(),
});
process.stdout.write(`${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS, stderr: stderr.slice(0, 2000) })}\n`);
