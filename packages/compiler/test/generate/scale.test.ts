/**
 * Codegen at scale. The always-on test checks a 300-rule world end to end; set ADEC_BENCH=1 to
 * also measure 1,000- and 10,000-rule worlds (numbers printed; see the report in the PR).
 */
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GLOBAL_NAME, bundleModule } from '../../src/bundle/index.js';
import { findForbiddenConstructs, generateModule, typecheckModule } from '../../src/generate/index.js';
import { SYNTHETIC_SOURCES, syntheticWorld } from './synthetic.js';

const provenance = { compilerVersion: '0.1.0', sources: SYNTHETIC_SOURCES };

describe('a large world', () => {
  it('generates a clean module whose rules decide correctly in the sandbox', async () => {
    const source = generateModule(syntheticWorld(300), provenance);
    expect(findForbiddenConstructs(source)).toEqual([]);
    expect(typecheckModule(source)).toEqual([]);
    const mod = runInContext(`${await bundleModule(source)}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
      _RULE_FUNCTIONS: Record<string, (ctx: object) => { matched: boolean; reason?: string }>;
      _ACTIONS: Record<string, { rules: string[] }>;
    };
    expect(Object.keys(mod._RULE_FUNCTIONS)).toHaveLength(300);
    expect(mod._ACTIONS['action_0']?.rules[0]).toBe('action_0_rule_0'); // t1 first
    // rule 3 (action_3): amount >= 111 and tier == "bronze"
    const rule = mod._RULE_FUNCTIONS['action_3_rule_3'];
    const ctx = { amount: 500, tier: 'bronze', country: 'DE', flags: [], verified: null, large: false };
    expect(rule?.(ctx)).toMatchObject({ matched: true, reason: 'Rule 3: amount 500 for tier bronze' });
    expect(rule?.({ ...ctx, tier: 'gold' }).matched).toBe(false);
  });
});

describe.skipIf(process.env['ADEC_BENCH'] === undefined)('cost', () => {
  it.each([1_000, 10_000])('%d rules', async (rules) => {
    const ms = (start: number) => Math.round(performance.now() - start);
    typecheckModule('export const warm = 1;\n'); // lib files parsed and bound once per process
    const world = syntheticWorld(rules);
    let t = performance.now();
    const source = generateModule(world, provenance);
    const generate = ms(t);
    t = performance.now();
    const forbidden = findForbiddenConstructs(source);
    const staticCheck = ms(t);
    t = performance.now();
    const problems = typecheckModule(source);
    const typecheck = ms(t);
    t = performance.now();
    const bundle = await bundleModule(source);
    const bundling = ms(t);
    expect(forbidden).toEqual([]);
    expect(problems).toEqual([]);
    console.log(
      `${rules} rules: module ${(source.length / 1024).toFixed(0)} KiB, bundle ${(bundle.length / 1024).toFixed(0)} KiB; ` +
        `generate ${generate} ms, forbidden-constructs ${staticCheck} ms, typecheck ${typecheck} ms, bundle ${bundling} ms`,
    );
  }, 600_000);
});
