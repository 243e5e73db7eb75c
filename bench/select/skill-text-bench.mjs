/**
 * The Skill Execution Contract's text checks against an adversary and against honest writing
 * (docs/skill-text.md): every disguised violation the generator makes for the SEC lab world
 * must be caught by its rule, and every reply of the benign corpus must pass, through the whole
 * ADE cycle with a model that answers at once. Reports both rates and what stage 7 costs per
 * reply (its validation time, from the trace) for each.
 *
 * The generator and the corpus are the test suite's own (packages/engine/test/sec-disguises/,
 * packages/engine/test/sec-corpus/), bundled here with esbuild so bench and tests judge the same texts.
 *
 * Standalone: node --no-node-snapshot bench/select/skill-text-bench.mjs
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { llmStubExecutor, runCycle, SELECTION_EXTENSION } from '../../packages/engine/dist/index.js';
import { DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { publishWorld } from '../lib/publish-synthetic.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TIMESTAMP = '2026-11-27T12:00:00.000Z';

/** The test suite's generator and corpus, as one module this process can import. */
async function testTexts() {
  const out = join(fileURLToPath(new URL('.', import.meta.url)), `.skill-texts-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: "export * from './test/engine/sec-disguises/lab-protected.ts'; export { BENIGN_CASES } from './test/engine/sec-corpus/benign-cases.ts';",
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: out,
    logLevel: 'error',
  });
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(out, { force: true });
  }
}

function worldFiles(dir) {
  const files = {};
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.adec')) files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** A world of the repo, built, signed, approved and loaded in process, as a host would. */
async function loadWorld(pathFromRepo, closers) {
  const store = mkdtempSync(join(tmpdir(), 'adec-skill-text-'));
  const published = await publishWorld(store, pathFromRepo.split('/').at(-1), worldFiles(join(REPO, pathFromRepo)));
  const loader = new ModuleLoader({ store: new DirectoryModuleStore(store), trust: published.trust, sandbox: { isolation: 'in-process', extensions: [SELECTION_EXTENSION] } });
  closers.push(async () => {
    await loader.close();
    rmSync(store, { recursive: true, force: true });
  });
  const loaded = await loader.load({ org: published.key.org, domain: published.key.domain, version: published.key.version });
  if (!loaded.ok) throw new Error(`${loaded.error.code}: ${loaded.error.message}`);
  return loaded.module;
}

async function decide(module, request, reply, id) {
  const result = await runCycle(module, request, { decisionId: id, timestamp: TIMESTAMP, executors: [llmStubExecutor(() => ({ payload: reply }))] });
  if (!result.ok) throw new Error(`${id}: ${result.error.code}: ${result.error.message}`);
  return result;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runSkillTextBench() {
  const texts = await testTexts();
  const closers = [];
  try {
    const modules = { 'sec-lab': await loadWorld('packages/engine/test/worlds/sec-lab', closers), fitness: await loadWorld('examples/fitness', closers) };
    // Warm up the path (the isolate compiles the checks on first use).
    for (let i = 0; i < 50; i++) await decide(modules['sec-lab'], { scenario: 'lab_pick', signals: texts.LAB_SIGNALS, actions: texts.LAB_CANDIDATES }, texts.VALID_REPLY, `warm-${i}`);

    const variants = texts.labVariants();
    const disguised = { total: variants.length, caught: 0, validateMs: [] };
    for (const [i, variant] of variants.entries()) {
      const result = await decide(modules['sec-lab'], { scenario: 'lab_pick', signals: texts.LAB_SIGNALS, actions: texts.LAB_CANDIDATES }, { ...texts.VALID_REPLY, text: variant.text }, `disguise-${i}`);
      const failures = result.trace.stages.validate_output?.output.ValidationResult.failures ?? [];
      if (result.response.execution.fallback_used && failures.some((failure) => variant.protected.caughtBy.includes(failure.id))) disguised.caught += 1;
      disguised.validateMs.push((result.trace.stages.validate_output?.duration_ms ?? 0));
    }
    const benign = { total: texts.BENIGN_CASES.length, passed: 0, validateMs: [] };
    for (const entry of texts.BENIGN_CASES) {
      const result = await decide(modules[entry.world], { scenario: entry.scenario, signals: entry.signals, actions: entry.actions }, entry.reply, `benign-${entry.id}`);
      const execution = result.response.execution;
      if (execution.validation_status === 'passed' && !execution.fallback_used && result.response.decision.selected_action === entry.selected) benign.passed += 1;
      benign.validateMs.push((result.trace.stages.validate_output?.duration_ms ?? 0));
    }
    const report = {
      phrases: texts.LAB_PROTECTED.length,
      disguised: { total: disguised.total, caught: disguised.caught, validateP50Ms: median(disguised.validateMs) },
      benign: { total: benign.total, passed: benign.passed, validateP50Ms: median(benign.validateMs) },
    };
    console.error(`skill text: disguised ${report.disguised.caught}/${report.disguised.total} caught, benign ${report.benign.passed}/${report.benign.total} passed`);
    return report;
  } finally {
    for (const close of closers) await close();
  }
}

const percent = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
const ms = (value) => (value < 1 ? value.toFixed(3) : value.toFixed(2));

/** The markdown of the section, from runSkillTextBench's result. */
export function skillTextReport(result) {
  return [
    '| replies through the ADE cycle, a model that answers at once | replies | as expected | rate | stage 7 (validate), p50 |',
    '| --- | ---: | ---: | ---: | ---: |',
    `| disguised violations of the SEC lab world (${result.phrases} terms and phrases × 34 disguises and 12 stacks): caught by their rule, the fallback used | ${result.disguised.total.toLocaleString('en')} | ${result.disguised.caught.toLocaleString('en')} | ${percent(result.disguised.caught, result.disguised.total)} | ${ms(result.disguised.validateP50Ms)} ms |`,
    `| benign corpus (the fitness example and the SEC lab): passed, the reply used as written | ${result.benign.total.toLocaleString('en')} | ${result.benign.passed.toLocaleString('en')} | ${percent(result.benign.passed, result.benign.total)} | ${ms(result.benign.validateP50Ms)} ms |`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(skillTextReport(await runSkillTextBench()));
}
