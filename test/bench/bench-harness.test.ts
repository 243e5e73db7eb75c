/**
 * The benchmark harness stays runnable (issue 4): `bench/run.mjs --quick` runs every section
 * and checks, before any timing, that every peer engine decides exactly as adec does on every
 * request. Times are printed, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// The bench is plain ESM JavaScript; vitest imports it as is.
import { assertAgreement } from '../../bench/decide/decide-bench.mjs';
import { prepareFloor } from '../../bench/peers/floor.mjs';
import { syntheticContexts, syntheticRules } from '../../bench/lib/synthetic-rules.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run bench -- --quick', () => {
  it('runs every section and reports that all engines agree at 10, 50 and 500 rules', () => {
    const run = spawnSync(process.execPath, ['--no-node-snapshot', 'bench/run.mjs', '--quick'], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
    expect(run.stderr).not.toMatch(/disagrees/);
    expect(run.status, run.stderr).toBe(0);
    for (const rules of [10, 50, 500]) expect(run.stderr).toContain(`decide, ${rules} rules: 7 engines agree on all 256 requests`);
    for (const section of ['## Decide, warm, in process', '## Sandbox host', '## Compile: adec build', '## Cold load']) expect(run.stdout).toContain(section);
  }, 200_000);
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
