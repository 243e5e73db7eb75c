/**
 * The benchmark harness's correctness (issue 4), without timing anything: every peer engine
 * decides exactly as adec does on every request, at 10, 50 and 500 rules, before the bench
 * times any of them. The timed sections run under `npm run bench` (and `npm run bench:smoke`,
 * its quick form), never in the test suite: on a loaded machine a run sheds load, and how fast
 * something is is the bench's to report, not a test's to assert.
 */
import { describe, expect, it } from 'vitest';
// The bench is plain ESM JavaScript; vitest imports it as is.
import { assertAgreement, checkDecideAgreement, PEERS } from '../../bench/decide/decide-bench.mjs';
import { prepareFloor } from '../../bench/peers/floor.mjs';
import { syntheticContexts, syntheticRules } from '../../bench/lib/synthetic-rules.mjs';

describe('the decide bench\'s engines', () => {
  it('all agree with adec on every request at 10, 50 and 500 rules', async () => {
    const sizes = await checkDecideAgreement();
    expect(sizes.map((size) => size.rules)).toEqual([10, 50, 500]);
    for (const size of sizes) {
      expect(size.engines).toHaveLength(8);
      for (const peer of PEERS) expect(size.engines).toContain(peer);
    }
  }, 120_000);
});

describe('the agreement check', () => {
  const rules = syntheticRules(50);
  const contexts = syntheticContexts(64);
  const engine = (name: string, dropRule?: string) => {
    const floor = prepareFloor(rules);
    return {
      name,
      decide: (context: unknown) => {
        const matched = (floor.matched(context) as string[]).filter((id) => id !== dropRule);
        return { status: 'any', winningRule: null, matched };
      },
      summary: (decision: unknown) => decision,
    };
  };
  const matchedSomewhere = rules.map((rule: { id: string }) => rule.id).find((id: string) => contexts.some((c: unknown) => prepareFloor(rules).matched(c).includes(id)));

  it('accepts engines that decide alike', async () => {
    await expect(assertAgreement([engine('reference'), engine('copy')], contexts)).resolves.toBeUndefined();
  });

  it('stops at the first request where an engine misses a matched rule, naming the engine and the request', async () => {
    await expect(assertAgreement([engine('reference'), engine('lossy', matchedSomewhere)], contexts)).rejects.toThrow(
      new RegExp(`lossy disagrees with reference on request \\d+ .*\\n  expected .*${matchedSomewhere}.*\\n  actual `),
    );
  });
});
