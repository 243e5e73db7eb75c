// Runs one `adec build` in this process and reports its peak memory and the time of each
// build phase, so the parent can time the whole process (node start-up included, as a user
// waits for it) and the report can show where the time goes.
import { buildWorld, isWorldLoadError, loadWorld, writeBuild } from '../../packages/compiler/dist/index.js';

const [world, out] = process.argv.slice(2);
const phases = {};
let current;
let startedAt = performance.now();
const mark = (phase) => {
  const now = performance.now();
  if (current !== undefined) phases[current] = (phases[current] ?? 0) + (now - startedAt);
  current = phase;
  startedAt = now;
};

mark('load');
const sources = await loadWorld(world);
if (isWorldLoadError(sources)) throw new Error(sources.problem);
const result = await buildWorld(sources, { onPhase: mark });
mark('write');
if (result.artifacts !== undefined) await writeBuild(result.artifacts, out);
mark(undefined);
const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.message}`);
process.stdout.write(
  `${JSON.stringify({ code: result.artifacts === undefined ? 1 : 0, maxRssKb: process.resourceUsage().maxRSS, phases, warnings: result.diagnostics.length - errors.length, stderr: errors.slice(0, 5).join('\n') })}\n`,
);
