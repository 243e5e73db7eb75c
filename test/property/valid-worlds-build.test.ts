/**
 * Code generation's contract on valid input: every world the checker accepts builds (its
 * generated module passes the forbidden-construct walk and the strict type check, so no
 * internal compiler error), and every predicate of the bundle runs in a bare context on
 * well-typed input and answers a boolean. Replay with ADEC_PROPERTY_SEED=<seed>; run longer
 * with ADEC_PROPERTY_RUNS=<n>.
 */
import { createContext, runInContext } from 'node:vm';
import { checkSources } from '@adec/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL_NAME, bundleModule } from '../../packages/compiler/src/bundle/index.js';
import { generateAndVerify } from '../../packages/compiler/src/generate/index.js';
import { runtimeContext, validWorld } from './valid-world-generator.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_121 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 60 : Number(process.env['ADEC_PROPERTY_RUNS']);

type Predicate = (ctx: unknown) => { matched: unknown; reason?: unknown };
type Filter = (ctx: unknown) => unknown;

describe('valid worlds', () => {
  it('check without error, build without internal compiler error, and their predicates answer booleans', async () => {
    await fc.assert(
      fc.asyncProperty(validWorld(), fc.array(runtimeContext(), { minLength: 5, maxLength: 5 }), async (text, contexts) => {
        const { world, diagnostics } = checkSources({ root: 'w', files: [{ path: 'w/main.adec', text }] });
        expect(diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.span.line}:${d.span.column} ${d.message}`)).toEqual([]);
        const generated = generateAndVerify(world!, { compilerVersion: '0.1.0', sources: ['main.adec'] });
        expect(generated.problems).toEqual([]);
        const bundle = await bundleModule(generated.source);
        const module = runInContext(`${bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
          _RULE_FUNCTIONS: Record<string, Predicate>;
          _RULE_APPLIES_WHEN: Record<string, Filter>;
        };
        for (const ctx of contexts) {
          for (const [id, predicate] of Object.entries(module._RULE_FUNCTIONS)) {
            const result = predicate(ctx);
            expect(typeof result.matched, id).toBe('boolean');
            if (result.matched) expect(typeof result.reason === 'string' || result.reason === undefined, id).toBe(true);
          }
          for (const [id, filter] of Object.entries(module._RULE_APPLIES_WHEN)) expect(typeof filter(ctx), id).toBe('boolean');
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
