/**
 * Soak (issue 27): the resident set of the host and of its sandbox process over 1,000,000
 * decisions (50,000 in `--quick`), and the same with the recycle policy set low, to show that
 * recycles happen and that no decision fails across them.
 *
 * In-host, through a ModuleLoader as `adec serve` builds it (a signed, approved, verified
 * bundle; `process` isolation with one shared sandbox process and one spare), the 50-rule
 * synthetic action, 64 decisions in flight. At every tenth of the run: the host's RSS, and what
 * the sandbox process reports (`ModuleLoader.sandboxMemory()`: its RSS and its isolate's heap).
 * Every decision is checked against the in-process answer to its request (status and winning
 * rule); one that differs, or that did not decide, is a failure.
 */
import { fileURLToPath } from 'node:url';
import { decide, DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';
import { syntheticContexts } from '../lib/synthetic-rules.mjs';

const RULES = 50;
const IN_FLIGHT = 64;
const CHECKPOINTS = 10;
/** The low recycle threshold of the second run: ten recycles over the full run. */
const RECYCLE_EVERY = 0.1;

const mib = (bytes) => bytes / 2 ** 20;

/** What identifies a decision's answer: its status and winning rule. */
const answerOf = (decision) => `${decision.status} ${decision.decision_metadata.aggregation_outcome.winning_rule}`;

async function moduleOf(published, sandbox) {
  const loader = new ModuleLoader({ store: new DirectoryModuleStore(published.store), trust: published.trust, sandbox });
  await loader.ready();
  const lookup = await loader.get(published.key);
  if (!lookup.ok) throw new Error(lookup.error.message);
  return { loader, module: lookup.module };
}

/** `total` decisions, IN_FLIGHT at a time, with the memory curve and the failures. */
async function soak(published, contexts, expected, total, recycleAfterDecisions) {
  const { loader, module } = await moduleOf(published, { isolation: 'process', processes: 1, spareProcesses: 1, recycleAfterDecisions });
  const curve = [];
  const sample = async (decisions, started) => {
    const [sandbox] = await loader.sandboxMemory();
    curve.push({ decisions, seconds: (performance.now() - started) / 1000, hostMiB: mib(process.memoryUsage().rss), sandboxMiB: mib(sandbox?.rssBytes ?? 0), isolateHeapMiB: mib(sandbox?.isolateHeapBytes ?? 0) });
  };
  const started = performance.now();
  await sample(0, started);
  let next = 0;
  let done = 0;
  const failures = [];
  let pendingSample = Promise.resolve();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) {
        const i = next++;
        const at = i % contexts.length;
        const decided = await decide(module, { action: published.key.action, context: contexts[at] });
        if (!decided.ok || answerOf(decided.decision) !== expected[at]) failures.push(decided.ok ? { answer: answerOf(decided.decision), expected: expected[at], errored: decided.decision.decision_metadata.errored_predicates.slice(0, 2) } : decided.error);
        const decisions = ++done;
        if (decisions % (total / CHECKPOINTS) === 0) pendingSample = pendingSample.then(() => sample(decisions, started));
      }
    }),
  );
  await pendingSample;
  const { recycles, restarts } = loader.stats().sandbox;
  await loader.close();
  return { total, recycleAfterDecisions: recycleAfterDecisions ?? null, curve, failures, recycles, restarts, seconds: (performance.now() - started) / 1000 };
}

export async function runSoakBench({ quick }) {
  const store = fileURLToPath(new URL(`../.work/soak-store-${RULES}/`, import.meta.url));
  const published = { ...(await publishSynthetic(store, RULES, { rulesPerAction: RULES })), store };
  const contexts = syntheticContexts(256);
  const reference = await moduleOf(published, { isolation: 'in-process' });
  const expected = [];
  for (const context of contexts) {
    const decided = await decide(reference.module, { action: published.key.action, context });
    if (!decided.ok) throw new Error(decided.error.message);
    expected.push(answerOf(decided.decision));
  }
  await reference.loader.close();

  const total = quick ? 50_000 : 1_000_000;
  return [await soak(published, contexts, expected, total), await soak(published, contexts, expected, total, total * RECYCLE_EVERY)];
}
