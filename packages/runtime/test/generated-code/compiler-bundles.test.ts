/**
 * The verifier accepts every bundle the compiler makes: both examples, every world under the
 * tests that builds (the engine's and runtime's worlds, the diagnostics fixtures and fixes that
 * check without error, the grammar tour beside this file), and worlds of the property generators
 * (ADEC_PROPERTY_SEED, ADEC_PROPERTY_RUNS as for test/property/).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verifyGeneratedCode } from '@adec/runtime';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { everythingNamed, namesWorld } from '../../../../test/property/prototype-names.js';
import { validSelectionWorld } from '../../../../test/property/valid-selection-world-generator.js';
import { validWorld } from '../../../../test/property/valid-world-generator.js';
import { loadWorldFromDir, repoPath } from '../../../../test/support/repo.js';
import { bundleOf, describeVerdict } from './verified-bundles.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_127 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 40 : Number(process.env['ADEC_PROPERTY_RUNS']);

const WORLD_DIRECTORIES = [
  'examples/benefits',
  'examples/fitness',
  'packages/engine/test/worlds/selection-lab',
  'packages/engine/test/worlds/sec-lab',
  'packages/runtime/test/worlds/conformance',
  'packages/runtime/test/generated-code/worlds/grammar-tour',
];

/** Each diagnostics fixture or fix (a file or a directory) is a world of its own; most do not build. */
const FIXTURE_DIRECTORIES = ['test/diagnostics/fixtures', 'test/diagnostics/fixes'];

describe('the verifier accepts what the compiler builds', () => {
  test.each(WORLD_DIRECTORIES)('%s', async (directory) => {
    const bundle = await bundleOf(loadWorldFromDir(directory));
    expect(bundle, `${directory} does not build`).toBeDefined();
    expect(describeVerdict(bundle!)).toBe('accepted');
  });

  test('every diagnostics fixture and fix that builds', async () => {
    let built = 0;
    for (const directory of FIXTURE_DIRECTORIES) {
      for (const entry of readdirSync(repoPath(directory)).sort()) {
        const path = join(directory, entry);
        if (!entry.endsWith('.adec') && !statSync(repoPath(path)).isDirectory()) continue;
        const bundle = await bundleOf(loadWorldFromDir(path));
        if (bundle === undefined) continue;
        built++;
        expect(describeVerdict(bundle), path).toBe('accepted');
      }
    }
    // Most fixtures are invalid on purpose; those with warnings only, and every fix, build.
    expect(built).toBeGreaterThan(50);
  }, 300_000);

  // Keys only: the language reserves these names for what generated code reads (attributes, fields).
  test.each(Object.getOwnPropertyNames(Object.prototype))('a world whose action, rule, skill, scenario, … are all named `%s`', async (name) => {
    const bundle = await bundleOf(namesWorld(everythingNamed(name)));
    expect(bundle).toBeDefined();
    expect(describeVerdict(bundle!)).toBe('accepted');
  });

  test('a chain long enough to be cut into blocks and groups of blocks', async () => {
    // 25 links a block, 20 blocks a group (compiler generate/emit-expr.ts): 1,200 operands make groups.
    const operands = Array.from({ length: 1200 }, (_, i) => `age == ${i}`).join(' or ');
    const text = `world { org "acme" domain "verifier.chains" version "1.0.0" }\n\naction long {\n  aggregate winner_takes_all\n\n  context {\n    supplied age: int\n  }\n\n  rule many {\n    outcome  YELLOW\n    severity t2\n    when     ${operands}\n  }\n}\n`;
    const bundle = await bundleOf({ root: 'w', files: [{ path: 'w/main.adec', text }] });
    expect(bundle).toBeDefined();
    expect(bundle).toMatch(/\(\(ctx\d*, left\d*\) => \(\(ctx\d*, left\d*\) =>/);
    expect(describeVerdict(bundle!)).toBe('accepted');
  });

  test('worlds of the property generators (adjudication and selection)', async () => {
    const world = fc.oneof(validWorld(), validSelectionWorld());
    await fc.assert(
      fc.asyncProperty(world, async (text) => {
        const bundle = await bundleOf({ root: 'w', files: [{ path: 'w/main.adec', text }] });
        expect(bundle, text).toBeDefined();
        const verdict = verifyGeneratedCode(bundle!);
        expect(describeVerdict(bundle!, verdict), text).toBe('accepted');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 300_000);
});
