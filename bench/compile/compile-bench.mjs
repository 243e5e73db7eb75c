/**
 * `adec build` wall time and peak memory for generated worlds. Each sample is a fresh
 * process building the world from scratch (what CI runs), timed from spawn to exit.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from '../lib/stats.mjs';
import { syntheticWorld } from '../lib/synthetic-world.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const WORK = fileURLToPath(new URL('../.work/', import.meta.url));

/** Targets from the compiler issue: 1,000 rules under 2 s, 10,000 under 10 s. */
export const COMPILE_TARGETS_MS = { 1000: 2000, 10000: 10000 };

function writeWorld(ruleCount) {
  const dir = join(WORK, `world-${ruleCount}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const world = syntheticWorld(ruleCount);
  for (const [name, text] of Object.entries(world.files)) writeFileSync(join(dir, name), text);
  return { dir, ...world };
}

function buildOnce(dir) {
  const out = `${dir}-build`;
  rmSync(out, { recursive: true, force: true });
  const started = process.hrtime.bigint();
  // No --no-node-snapshot: the launcher starts `build` without it (only eval and test need it).
  const child = spawnSync(process.execPath, [join(HERE, 'timed-build.mjs'), dir, out], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const report = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}');
  if (child.status !== 0 || report.code !== 0) {
    throw new Error(`adec build of ${dir} failed (exit ${child.status}/${report.code}):\n${report.stderr ?? child.stderr}`);
  }
  return { wallMs, maxRssMiB: report.maxRssKb / 1024, phases: report.phases, warnings: report.warnings };
}

export function runCompileBench({ quick }) {
  const plan = quick ? [{ rules: 200, runs: 1 }] : [{ rules: 1000, runs: 5 }, { rules: 10000, runs: 3 }];
  return plan.map(({ rules, runs }) => {
    const world = writeWorld(rules);
    const samples = Array.from({ length: runs }, () => buildOnce(world.dir));
    const phaseNames = Object.keys(samples[0].phases);
    return {
      rules,
      actions: world.actions,
      warnings: samples[0].warnings,
      wall: summarize(samples.map((s) => s.wallMs)),
      rss: summarize(samples.map((s) => s.maxRssMiB)),
      phases: Object.fromEntries(phaseNames.map((name) => [name, summarize(samples.map((s) => s.phases[name] ?? 0)).median])),
      targetMs: COMPILE_TARGETS_MS[rules],
    };
  });
}
