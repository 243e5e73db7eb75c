/**
 * Warm decide, in process, adec against peer engines (issue 4): the same synthetic rules
 * (bench/lib/synthetic-rules.mjs) as one action of 10, 50 and 500 rules, expressed in each
 * engine's own language, on the same 256 varied requests.
 *
 * Before anything is timed, every engine must agree with adec on every request: the same
 * matched rules, the same status, the same winning rule. A disagreement stops the run, so a
 * reported ratio always compares engines that computed the same answers.
 */
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { decide, DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { prepareCedar } from '../peers/cedar.mjs';
import { prepareFloor } from '../peers/floor.mjs';
import { prepareSandboxedFloor } from '../peers/sandboxed-floor.mjs';
import { prepareJsonRulesEngine } from '../peers/json-rules-engine.mjs';
import { evaluationOrder, winnerTakesAll } from '../peers/winner-takes-all.mjs';
import { prepareZen } from '../peers/zen.mjs';
import { profileDecide } from './adec-profile.mjs';
import { movedInProcess } from '../lib/moved-in-process.mjs';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';
import { syntheticContexts, syntheticRules } from '../lib/synthetic-rules.mjs';
import { syntheticActionName } from '../lib/synthetic-world.mjs';

export const RULE_COUNTS = [10, 50, 500];
const REQUESTS = 256;
const ISOLATIONS = ['in-process', 'auto', 'process'];
export const ADEC_IN_PROCESS = 'adec decide(), in-process isolate';
export const ADEC_DEFAULT_HOST = 'adec decide(), default host (auto: rebuilt and verified, so in process)';
const ENGINE_NAMES = { 'in-process': ADEC_IN_PROCESS, auto: ADEC_DEFAULT_HOST, process: 'adec decide(), sandbox process' };
export const FLOOR = 'plain JavaScript (floor)';
export const SANDBOXED_FLOOR = 'sandboxed floor (isolate, one crossing)';
export const PEERS = ['Cedar (cedar-wasm)', 'GoRules ZEN (zen-engine)', 'json-rules-engine'];
/** Issue 4's ratios, issue 3's latency target, issue 14's ratio to the sandboxed floor and issue 29's default host, all at 50 rules. */
export const DECIDE_TARGETS = { rules: 50, overFastestPeer: 5, overFloor: 5, p50Us: 20, overSandboxedFloor: 1.5, defaultOverInProcess: 1.5 };

/**
 * adec's engines, one per isolation; `module` is kept for the profile. An engine under test has
 * a `decide` (sync or async) and a `summary` giving `{ status, winningRule, matched }`, and may
 * have a `settled` decide for the agreement check: adec's asks again (up to
 * SETTLE_ATTEMPTS times) a decision where a predicate ran out of its 5 ms time limit, which a
 * loaded machine's scheduler can cause and which fails safe to YELLOW or RED by design: the
 * agreement is about the logic.
 */
async function adecEngines(ruleCount, closers) {
  const store = fileURLToPath(new URL(`../.work/decide-store-${ruleCount}/`, import.meta.url));
  const published = await publishSynthetic(store, ruleCount, { rulesPerAction: ruleCount });
  const engines = [];
  for (const isolation of ISOLATIONS) {
    const loader = new ModuleLoader({ store: new DirectoryModuleStore(store), trust: published.trust, sandbox: { isolation } });
    closers.push(() => loader.close());
    const lookup = isolation === 'auto' ? { ok: true, module: await movedInProcess(loader, published.key) } : await loader.get(published.key);
    if (!lookup.ok) throw new Error(lookup.error.message);
    const { action } = published.key;
    engines.push({
      module: lookup.module,
      name: ENGINE_NAMES[isolation],
      async decide(context) {
        const result = await decide(lookup.module, { action, context });
        if (!result.ok) throw new Error(result.error.message);
        return result.decision;
      },
      async settled(context) {
        let decision;
        for (let attempt = 1; attempt <= SETTLE_ATTEMPTS; attempt++) {
          decision = await this.decide(context);
          if (!decision.decision_metadata.errored_predicates.some((errored) => errored.kind === 'timeout')) break;
          console.error(`decide: ${this.name}: a predicate ran out of its time limit (attempt ${attempt}); asking again`);
        }
        return decision;
      },
      summary: (decision) => ({ status: decision.status, winningRule: decision.decision_metadata.aggregation_outcome.winning_rule, matched: decision.decision_metadata.matched_rules }),
    });
  }
  return engines;
}

const SETTLE_ATTEMPTS = 3;

/** Whether `fn` is an `async` function: such engines are timed awaiting each call. */
const isAsync = (fn) => fn.constructor.name === 'AsyncFunction';

/** A peer that reports matched rules, completed by the shared winner-takes-all. */
function matchingEngine(peer, order) {
  return {
    name: peer.name,
    decide: isAsync(peer.matched)
      ? async (context) => { const matched = await peer.matched(context); return { ...winnerTakesAll(order, matched), matched }; }
      : (context) => { const matched = peer.matched(context); return { ...winnerTakesAll(order, matched), matched }; },
    summary: (decision) => decision,
  };
}

const canonical = ({ status, winningRule, matched }) => JSON.stringify({ status, winningRule, matched: [...matched].sort() });

/** Throws on the first request where an engine's decision differs from adec's. */
export async function assertAgreement(engines, contexts) {
  const [reference, ...others] = engines;
  for (const [index, context] of contexts.entries()) {
    const decided = (engine) => (engine.settled ?? engine.decide).call(engine, context);
    const expected = canonical(reference.summary(await decided(reference)));
    for (const engine of others) {
      const actual = canonical(engine.summary(await decided(engine)));
      if (actual !== expected) {
        throw new Error(`${engine.name} disagrees with ${reference.name} on request ${index} ${JSON.stringify(context)}:\n  expected ${expected}\n  actual   ${actual}`);
      }
    }
  }
}

async function measure(engines, contexts, quick) {
  const bench = new Bench({ time: quick ? 100 : 1500, warmupTime: quick ? 20 : 300 });
  for (const engine of engines) {
    let i = 0;
    const next = () => contexts[i++ % contexts.length];
    bench.add(engine.name, isAsync(engine.decide) ? async () => { await engine.decide(next()); } : () => { engine.decide(next()); });
  }
  await bench.run();
  return bench.tasks.map((task) => ({
    name: task.name,
    p50Us: task.result.latency.p50 * 1000,
    p99Us: task.result.latency.p99 * 1000,
    meanUs: task.result.latency.mean * 1000,
    rmePercent: task.result.latency.rme,
    opsPerSec: task.result.throughput.mean,
  }));
}

/**
 * Every engine prepared for `ruleCount` rules, checked to agree with adec on every request of
 * `contexts` before `use` sees them; closed afterwards.
 */
async function withAgreeingEngines(ruleCount, contexts, use) {
  const closers = [];
  try {
    const rules = syntheticRules(ruleCount);
    const order = evaluationOrder(rules);
    const sandboxedFloor = prepareSandboxedFloor(rules);
    closers.push(() => sandboxedFloor.close());
    const peers = await Promise.all([sandboxedFloor, prepareFloor(rules), prepareCedar(rules), prepareZen(rules), prepareJsonRulesEngine(rules)]);
    const engines = [...(await adecEngines(ruleCount, closers)), ...peers.map((peer) => matchingEngine(peer, order))];
    await assertAgreement(engines, contexts);
    console.error(`decide, ${ruleCount} rules: ${engines.length} engines agree on all ${contexts.length} requests`);
    return await use(engines);
  } finally {
    await Promise.all(closers.map((close) => close()));
  }
}

/**
 * The agreement check alone (the test suite's smoke of the harness: nothing timed).
 * @returns {Promise<Array<{ rules: number, engines: string[] }>>} per rule count, the engines that agreed
 */
export async function checkDecideAgreement() {
  const contexts = syntheticContexts(REQUESTS);
  const sizes = [];
  for (const ruleCount of RULE_COUNTS) sizes.push({ rules: ruleCount, engines: await withAgreeingEngines(ruleCount, contexts, async (engines) => engines.map((engine) => engine.name)) });
  return sizes;
}

/**
 * @returns {Promise<Array<{ rules: number, agreed: number, results: Awaited<ReturnType<typeof measure>> }>>}
 *   per rule count; `quick` checks agreement fully but times only briefly
 */
export async function runDecideBench({ quick }) {
  const contexts = syntheticContexts(REQUESTS);
  const sizes = [];
  for (const ruleCount of RULE_COUNTS) {
    const measured = await withAgreeingEngines(ruleCount, contexts, async (engines) => {
      const results = await measure(engines, contexts, quick);
      const inProcess = engines.find((engine) => engine.name === ADEC_IN_PROCESS);
      const profile = ruleCount === DECIDE_TARGETS.rules ? await profileDecide(inProcess.module, syntheticActionName(0), contexts, { quick }) : undefined;
      return { rules: ruleCount, agreed: contexts.length, results, profile };
    });
    sizes.push(measured);
  }
  return sizes;
}
