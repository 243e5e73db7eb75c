/**
 * The fast path as the default (issue 29), measured in one run: what a decision costs on the
 * default host against in process and a sandbox process (50 rules), what `adec approve` of the
 * 1,000-rule world costs with its rebuild, and what the verifier costs on that world's bundle,
 * cold and warm, and how long the default host takes to move a first-loaded module in process.
 * Not part of `npm run bench` (its decide and cold-load sections carry the default host's rows);
 * run it by hand: `node --no-node-snapshot bench/runtime/isolation-bench.mjs [--quick]`, and it
 * prints a Markdown report.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { decide, DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { movedInProcess } from '../lib/moved-in-process.mjs';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';
import { summarize } from '../lib/stats.mjs';
import { syntheticContexts } from '../lib/synthetic-rules.mjs';
import { syntheticWorld } from '../lib/synthetic-world.mjs';

const quick = process.argv.includes('--quick');
const WORK = fileURLToPath(new URL('../.work/isolation/', import.meta.url));
const ADEC = fileURLToPath(new URL('../../packages/cli/bin/adec.js', import.meta.url));
const VERIFIER = fileURLToPath(new URL('../../packages/runtime/dist/load/generated-code/verify-generated-code.js', import.meta.url));

const ms = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const us = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

async function decideRows() {
  const published = await publishSynthetic(join(WORK, 'store-50'), 50, { rulesPerAction: 50 });
  const contexts = syntheticContexts(256);
  const bench = new Bench({ time: quick ? 100 : 2000, warmupTime: quick ? 20 : 300 });
  const loaders = [];
  for (const [name, isolation] of [['in process (`in-process`)', 'in-process'], ['default host (`auto`), once moved in process', 'auto'], ['sandbox process (`process`)', 'process']]) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(join(WORK, 'store-50')), trust: published.trust, sandbox: { isolation } });
    loaders.push(loader);
    await loader.ready();
    const module = isolation === 'auto' ? await movedInProcess(loader, published.key) : (await loader.get(published.key)).module;
    let i = 0;
    bench.add(name, async () => {
      const result = await decide(module, { action: published.key.action, context: contexts[i++ % contexts.length] });
      if (!result.ok) throw new Error(result.error.message);
    });
  }
  await bench.run();
  await Promise.all(loaders.map((loader) => loader.close()));
  return bench.tasks.map((task) => ({ name: task.name, p50Us: task.result.latency.p50 * 1000, p99Us: task.result.latency.p99 * 1000 }));
}

/** `adec approve` of the 1,000-rule world, each a fresh process, its rebuild included. */
function approveTimes() {
  const world = join(WORK, 'world-1000');
  const out = join(WORK, 'approve');
  for (const dir of [world, out, join(WORK, 'keys')]) rmSync(dir, { recursive: true, force: true });
  mkdirSync(world, { recursive: true });
  for (const [name, text] of Object.entries(syntheticWorld(1000).files)) writeFileSync(join(world, name), text);
  const adec = (...args) => execFileSync(process.execPath, [ADEC, ...args], { cwd: WORK, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  adec('build', world, '--out', out);
  adec('keygen', '--out', join(WORK, 'keys'), '--name', 'operator');
  const samples = [];
  for (let run = 0; run < (quick ? 1 : 5); run++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [ADEC, 'approve', out, '--key', join(WORK, 'keys', 'operator.key.jwk')], { encoding: 'utf8' });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`adec approve failed: ${child.stderr}`);
  }
  return { approve: summarize(samples), bundle: join(out, 'bundle.js') };
}

/** The verifier on a bundle: its first call in a fresh process, and warm. */
function verifierTimes(bundlePath) {
  const script = `
    const { readFileSync } = await import('node:fs');
    const { verifyGeneratedCode } = await import(${JSON.stringify(VERIFIER)});
    const source = readFileSync(${JSON.stringify(bundlePath)}, 'utf8');
    const times = [];
    for (let i = 0; i < ${quick ? 3 : 15}; i++) {
      const started = process.hrtime.bigint();
      const verdict = verifyGeneratedCode(source);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (!verdict.ok) throw new Error(verdict.problem);
    }
    console.log(JSON.stringify({ bytes: source.length, times }));`;
  const cold = [];
  let warm = [];
  let bytes = 0;
  for (let run = 0; run < (quick ? 1 : 5); run++) {
    const report = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    cold.push(report.times[0]);
    warm = warm.concat(report.times.slice(2));
    bytes = report.bytes;
  }
  return { bytes, cold: summarize(cold), warm: summarize(warm) };
}

/** A first load of the 1,000-rule world on the default host: answered from a sandbox process, then moved in process. */
async function moveTimes() {
  const published = await publishSynthetic(join(WORK, 'store-1000'), 1000);
  const load = [];
  const moved = [];
  for (let run = 0; run < (quick ? 1 : 5); run++) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(join(WORK, 'store-1000')), trust: published.trust });
    await loader.ready();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = process.hrtime.bigint();
    const first = await loader.get(published.key);
    load.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (!first.ok || first.module.isolation.reason !== 'VERIFYING') throw new Error('the first load was not answered from a sandbox process while verifying');
    await movedInProcess(loader, published.key);
    moved.push(Number(process.hrtime.bigint() - started) / 1e6);
    await loader.close();
  }
  return { load: summarize(load), moved: summarize(moved) };
}

const decideResults = await decideRows();
const { approve, bundle } = approveTimes();
const verifier = verifierTimes(bundle);
const move = await moveTimes();
const inProcessP50 = decideResults[0].p50Us;
console.log(`| 50 rules, one decision at a time | p50 | p99 | over in process (p50) |
| --- | ---: | ---: | ---: |
${decideResults.map((row) => `| ${row.name} | ${us(row.p50Us)} µs | ${us(row.p99Us)} µs | ${(row.p50Us / inProcessP50).toFixed(2)}× |`).join('\n')}

| 1,000-rule world | runs | median | min – max |
| --- | ---: | ---: | ---: |
| \`adec approve\`, its rebuild included (a fresh process) | ${approve.n} | ${ms(approve.median)} ms | ${ms(approve.min)} – ${ms(approve.max)} ms |
| the verifier on its ${Math.round(verifier.bytes / 1024)} KiB bundle, first call in a process | ${verifier.cold.n} | ${ms(verifier.cold.median)} ms | ${ms(verifier.cold.min)} – ${ms(verifier.cold.max)} ms |
| the verifier, warm | ${verifier.warm.n} | ${ms(verifier.warm.median)} ms | ${ms(verifier.warm.min)} – ${ms(verifier.warm.max)} ms |
| default host, first load (answered from a spare sandbox process) | ${move.load.n} | ${ms(move.load.median)} ms | ${ms(move.load.min)} – ${ms(move.load.max)} ms |
| default host, from that load until it serves in process | ${move.moved.n} | ${ms(move.moved.median)} ms | ${ms(move.moved.min)} – ${ms(move.moved.max)} ms |`);
