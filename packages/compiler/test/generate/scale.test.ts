/**
 * Codegen at scale: a 300-rule world end to end. Its cost is measured in bench/compile,
 * never asserted here.
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
