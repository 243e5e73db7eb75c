/**
 * The checker's contract on arbitrary input (ARCHITECTURE "Parse": parsing never throws on
 * bad input; STYLE 3: a thrown error means a bug in adec). For every generated world:
 * `checkSources` returns, within a hang bound; every diagnostic has a catalogued code, the
 * catalogue's severity, a non-empty message and a span inside its file; and a checked world
 * is produced exactly when there is no error.
 *
 * Three generators: token soups from the language's vocabulary, mutations of the example
 * worlds and the fixtures, and a grammar-based generator of well-formed-ish worlds.
 * fast-check prints the seed and the shrunk counterexample on failure; replay with
 * ADEC_PROPERTY_SEED=<seed>. ADEC_PROPERTY_RUNS=<n> runs n sources per generator instead of
 * the defaults (which add up to 10,000 per run).
 */
import { performance } from 'node:perf_hooks';
import { checkSources, type WorldSources } from '@adec/compiler';
import { CATALOGUE, type Diagnostic } from '@adec/diagnostics';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusWorlds } from './corpus.js';
import { HangWatchdog } from './hang-watchdog.js';
import { mutatedWorld } from './mutations.js';
import { edgeNumberWorld, generatedWorld } from './world-generator.js';
import { tokenSoup } from './vocabulary.js';

/** A hang check, not a performance assertion: a single source should take milliseconds. */
const HANG_BOUND_MS = 2_000;
const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_260_301 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS_OVERRIDE = process.env['ADEC_PROPERTY_RUNS'] === undefined ? undefined : Number(process.env['ADEC_PROPERTY_RUNS']);
const MINIMUM_SOURCES_PER_RUN = 10_000;

const watchdog = new HangWatchdog(HANG_BOUND_MS);
let sourcesChecked = 0;
let slowest = { ms: 0, text: '' };

function runs(defaultRuns: number): number {
  return RUNS_OVERRIDE ?? defaultRuns;
}

/** Runs the checker on one world and asserts the contract; throws (fails) on violation. */
function checkContract(sources: WorldSources): void {
  const text = sources.files.map((f) => `// ── ${f.path}\n${f.text}`).join('\n');
  const started = performance.now();
  const result = watchdog.watch(text, () => checkSources(sources));
  const elapsed = performance.now() - started;
  sourcesChecked++;
  if (elapsed > slowest.ms) slowest = { ms: elapsed, text };
  if (elapsed > HANG_BOUND_MS) throw new Error(`checkSources took ${elapsed.toFixed(0)} ms (bound ${HANG_BOUND_MS} ms)`);

  const texts = new Map(sources.files.map((f) => [f.path, f.text]));
  for (const d of result.diagnostics) assertWellFormed(d, texts);
  const hasError = result.diagnostics.some((d) => d.severity === 'error');
  if ((result.world !== undefined) === hasError) {
    throw new Error(`world is ${result.world === undefined ? 'absent' : 'present'} but the diagnostics have ${hasError ? 'an' : 'no'} error`);
  }
}

function assertWellFormed(d: Diagnostic, texts: ReadonlyMap<string, string>): void {
  const where = `${d.code} at ${d.span.file}:${d.span.line}:${d.span.column} (${d.message})`;
  const entry = (CATALOGUE as Record<string, { severity: string } | undefined>)[d.code];
  if (entry === undefined) throw new Error(`uncatalogued code ${where}`);
  if (entry.severity !== d.severity) throw new Error(`severity ${d.severity} differs from the catalogue's ${entry.severity}: ${where}`);
  if (d.message.trim() === '') throw new Error(`empty message: ${where}`);
  const text = texts.get(d.span.file);
  if (text === undefined) throw new Error(`span names a file that is not in the world: ${where}`);
  const lineCount = text.split('\n').length;
  if (!Number.isInteger(d.span.line) || d.span.line < 1 || d.span.line > lineCount + 1) {
    throw new Error(`line outside the file (1..${lineCount + 1}): ${where}`);
  }
  if (!Number.isInteger(d.span.column) || d.span.column < 1) throw new Error(`column < 1: ${where}`);
}

const property = (arbitrary: fc.Arbitrary<WorldSources>, numRuns: number) =>
  fc.assert(
    fc.property(arbitrary, (sources) => checkContract(sources)),
    { numRuns, seed: SEED, endOnFailure: false },
  );

describe('checkSources never throws and reports well-formed diagnostics', () => {
  it('on token soups from the language vocabulary', () => {
    property(tokenSoup(), runs(3_500));
  });

  // Example worlds are the largest sources (about 9 ms each), so they get fewer runs.
  it('on mutations of the example worlds', () => {
    property(mutatedWorld(corpusWorlds('examples')), runs(1_000));
  });

  it('on mutations of the invalid-world fixtures', () => {
    property(mutatedWorld(corpusWorlds('fixtures')), runs(3_000));
  });

  it('on generated well-formed-ish worlds', () => {
    property(generatedWorld(), runs(2_500));
  });

  // Numbers at and beyond the edge of exact integer arithmetic (2^53): analyses that step
  // through integers near a constant must still terminate. Last, because a hang here ends
  // the process (see hang-watchdog.ts).
  it('on integer constants at the edge of the safe integer range', () => {
    property(edgeNumberWorld(), runs(50));
  });

  it(`checks at least ${MINIMUM_SOURCES_PER_RUN} sources per run`, () => {
    if (RUNS_OVERRIDE === undefined) expect(sourcesChecked).toBeGreaterThanOrEqual(MINIMUM_SOURCES_PER_RUN);
  });
});

afterAll(async () => {
  await watchdog.stop();
  // Printed so a slow-down shows in CI logs before it becomes a hang.
  console.info(`property: ${sourcesChecked} sources, slowest ${slowest.ms.toFixed(1)} ms`);
});
