/**
 * The checker's contract on arbitrary input (ARCHITECTURE "Parse": parsing never throws on
 * bad input; STYLE 3: a thrown error means a bug in adec). For every generated world:
 * `checkSources` returns, within a hang bound; no diagnostic is an internal compiler error
 * (ADEC9xxx); every diagnostic has a catalogued code, the catalogue's severity, a non-empty
 * message and a span inside its file; and a checked world is produced exactly when there is
 * no error. A crash — a thrown error, an internal error or a hang — fails the run.
 *
 * Generators: token soups from the language's vocabulary, mutations of the example worlds
 * and the fixtures, a grammar-based generator of well-formed-ish worlds, random Unicode in
 * real worlds, deep nesting and long chains (limit-generators.ts). Deep nesting and long
 * chains that check clean are also built in full (code generation, the generated module's
 * static and type checks, bundling, the bundle's shape): no internal error there either.
 * fast-check prints the seed and the shrunk counterexample on failure; replay with
 * ADEC_PROPERTY_SEED=<seed>. ADEC_PROPERTY_RUNS=<n> runs n sources per generator instead of
 * the defaults (which add up to more than 10,000 per run; the counts are in the test names).
 */
import { performance } from 'node:perf_hooks';
import { buildWorld, checkSources, type WorldSources } from '@adec/compiler';
import { CATALOGUE, type Diagnostic } from '@adec/diagnostics';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusWorlds } from './corpus.js';
import { HangWatchdog } from './hang-watchdog.js';
import { deepNestingWorld, longChainWorld, unicodeWorld } from './limit-generators.js';
import { mutatedWorld } from './mutations.js';
import { edgeNumberWorld, generatedWorld } from './world-generator.js';
import { tokenSoup } from './vocabulary.js';

/** A hang check, not a performance assertion: a single source should take milliseconds. */
const HANG_BOUND_MS = 2_000;
/** The same for a 10,000-operand chain (about a second to check) and for a full build. */
const LONG_HANG_BOUND_MS = 30_000;
const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_260_301 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS_OVERRIDE = process.env['ADEC_PROPERTY_RUNS'] === undefined ? undefined : Number(process.env['ADEC_PROPERTY_RUNS']);
const MINIMUM_SOURCES_PER_RUN = 10_000;

const watchdog = new HangWatchdog(HANG_BOUND_MS);
const longWatchdog = new HangWatchdog(LONG_HANG_BOUND_MS);
const buildWatchdog = new HangWatchdog(LONG_HANG_BOUND_MS, 'buildWorld');
let sourcesChecked = 0;
let worldsBuilt = 0;
let slowest = { ms: 0, text: '' };

function runs(defaultRuns: number): number {
  return RUNS_OVERRIDE ?? defaultRuns;
}

/** The world's files as one text, for a hang report. */
function worldText(sources: WorldSources): string {
  return sources.files.map((f) => `// ── ${f.path}\n${f.text}`).join('\n');
}

/**
 * Runs the checker on one world and asserts the contract; throws (fails) on violation.
 * Returns whether the world checked clean (no error).
 */
function checkContract(sources: WorldSources, bound = HANG_BOUND_MS): boolean {
  const text = worldText(sources);
  const started = performance.now();
  const result = (bound === HANG_BOUND_MS ? watchdog : longWatchdog).watch(text, () => checkSources(sources));
  const elapsed = performance.now() - started;
  sourcesChecked++;
  if (elapsed > slowest.ms) slowest = { ms: elapsed, text };
  if (elapsed > bound) throw new Error(`checkSources took ${elapsed.toFixed(0)} ms (bound ${bound} ms)`);

  const texts = new Map(sources.files.map((f) => [f.path, f.text]));
  assertNoInternalError(result.diagnostics);
  for (const d of result.diagnostics) assertWellFormed(d, texts);
  const hasError = result.diagnostics.some((d) => d.severity === 'error');
  if ((result.world !== undefined) === hasError) {
    throw new Error(`world is ${result.world === undefined ? 'absent' : 'present'} but the diagnostics have ${hasError ? 'an' : 'no'} error`);
  }
  return !hasError;
}

/** The check's contract, then, for a world that checks clean, a full build without an internal error. */
async function buildContract(sources: WorldSources): Promise<void> {
  if (!checkContract(sources, LONG_HANG_BOUND_MS)) return;
  const built = await buildWatchdog.watchAsync(worldText(sources), () => buildWorld(sources));
  worldsBuilt++;
  assertNoInternalError(built.diagnostics);
  if (built.artifacts === undefined) throw new Error(`a world that checks clean did not build: ${built.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}`);
}

/** An internal compiler error (ADEC9xxx) is a crash: a bug in adec, whatever the input. */
function assertNoInternalError(diagnostics: readonly Diagnostic[]): void {
  const internal = diagnostics.find((d) => d.code.startsWith('ADEC9'));
  if (internal !== undefined) throw new Error(`internal compiler error ${internal.code}: ${internal.message}; ${(internal.notes ?? []).join('; ')}`);
}

function assertWellFormed(d: Diagnostic, texts: ReadonlyMap<string, string>): void {
  const where = `${d.code} at ${d.span.file}:${d.span.line}:${d.span.column} (${d.message})`;
  const entry = (CATALOGUE as Record<string, { severity: string } | undefined>)[d.code];
  if (entry === undefined) throw new Error(`uncatalogued code ${where}`);
  if (entry.severity !== d.severity) throw new Error(`severity ${d.severity} differs from the catalogue's ${entry.severity}: ${where}`);
  if (d.message.trim() === '') throw new Error(`empty message: ${where}`);
  const text = texts.get(d.span.file);
  if (text === undefined) throw new Error(`span names a file that is not in the world: ${where}`);
  // Lines as the lexer counts them (grammar/src/line-map.ts): a lone `\r` ends a line too.
  const lineCount = text.split(/\r\n|\r|\n/).length;
  if (!Number.isInteger(d.span.line) || d.span.line < 1 || d.span.line > lineCount + 1) {
    throw new Error(`line outside the file (1..${lineCount + 1}): ${where}`);
  }
  if (!Number.isInteger(d.span.column) || d.span.column < 1) throw new Error(`column < 1: ${where}`);
}

const property = (arbitrary: fc.Arbitrary<WorldSources>, numRuns: number) =>
  fc.assert(
    fc.property(arbitrary, (sources) => void checkContract(sources)),
    { numRuns, seed: SEED, endOnFailure: false },
  );

/** Checks every world, and builds each one that checks clean. */
const buildProperty = (arbitrary: fc.Arbitrary<WorldSources>, numRuns: number) =>
  fc.assert(
    fc.asyncProperty(arbitrary, (sources) => buildContract(sources)),
    { numRuns, seed: SEED, endOnFailure: false },
  );

/** The default runs per generator (ADEC_PROPERTY_RUNS replaces each). */
const RUNS = { soup: 3_500, examples: 1_000, fixtures: 3_000, generated: 2_500, unicode: 1_500, nesting: 60, chains: 16, edge: 50 } as const;

describe('checkSources never throws and reports well-formed diagnostics', () => {
  it(`on ${runs(RUNS.soup)} token soups from the language vocabulary`, () => {
    property(tokenSoup(), runs(RUNS.soup));
  });

  // Example worlds are the largest sources (about 9 ms each), so they get fewer runs.
  it(`on ${runs(RUNS.examples)} mutations of the example worlds`, () => {
    property(mutatedWorld(corpusWorlds('examples')), runs(RUNS.examples));
  });

  it(`on ${runs(RUNS.fixtures)} mutations of the invalid-world fixtures`, () => {
    property(mutatedWorld(corpusWorlds('fixtures')), runs(RUNS.fixtures));
  });

  it(`on ${runs(RUNS.generated)} generated well-formed-ish worlds`, () => {
    property(generatedWorld(), runs(RUNS.generated));
  });

  it(`on ${runs(RUNS.unicode)} worlds with random Unicode (any code point, lone surrogates, BOM, RTL marks, NUL, CRLF on every line)`, () => {
    property(unicodeWorld([...corpusWorlds('examples'), ...corpusWorlds('fixtures')]), runs(RUNS.unicode));
  });

  // Each one that checks clean is built too (about 0.2 s each).
  it(`on ${runs(RUNS.nesting)} deeply nested worlds, around and far past the nesting limit, building those that check`, async () => {
    await buildProperty(deepNestingWorld(), runs(RUNS.nesting));
  }, 300_000);

  // Up to 10,000 operands: about a second each to check and build.
  it(`on ${runs(RUNS.chains)} worlds with long chains of operators, up to 10,000 operands, building those that check`, async () => {
    await buildProperty(longChainWorld(), runs(RUNS.chains));
  }, 300_000);

  // Numbers at and beyond the edge of exact integer arithmetic (2^53): analyses that step
  // through integers near a constant must still terminate. Last, because a hang here ends
  // the process (see hang-watchdog.ts).
  it(`on ${runs(RUNS.edge)} integer constants at the edge of the safe integer range`, () => {
    property(edgeNumberWorld(), runs(RUNS.edge));
  });

  it(`checks at least ${MINIMUM_SOURCES_PER_RUN} sources per run`, () => {
    if (RUNS_OVERRIDE === undefined) expect(sourcesChecked).toBeGreaterThanOrEqual(MINIMUM_SOURCES_PER_RUN);
  });
});

afterAll(async () => {
  await Promise.all([watchdog.stop(), longWatchdog.stop(), buildWatchdog.stop()]);
  // Printed so a slow-down shows in CI logs before it becomes a hang.
  console.info(`property: ${sourcesChecked} sources checked, ${worldsBuilt} built, slowest check ${slowest.ms.toFixed(1)} ms`);
});
