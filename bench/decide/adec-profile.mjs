/**
 * Where the time of one adec decide() goes, in process: each stage of the composition root
 * timed on its own over the same requests, so the report can say what a faster decide would
 * have to shave. Stages are measured separately (each in its own warmed loop), so they need not
 * add up exactly to the whole. The host's share after evaluation is measured by replaying
 * recorded evaluations through decide(), which runs everything but the sandbox.
 */
import { crossingLimitMs } from '../../packages/runtime/dist/sandbox/evaluate-action.js';
import { decide } from '../../packages/runtime/dist/index.js';

const WARMUP = 5_000;

/** Median per-call microseconds over `batches` batches of `calls`. */
function perCallUs(run, { calls, batches }) {
  for (let i = 0; i < WARMUP; i++) run(i);
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) run(i);
    samples.push(Number(process.hrtime.bigint() - started) / calls / 1000);
  }
  return samples.sort((x, y) => x - y)[batches >> 1];
}

async function perCallUsAsync(run, { calls, batches }) {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await run(i);
    samples.push(Number(process.hrtime.bigint() - started) / calls / 1000);
  }
  return samples.sort((x, y) => x - y)[batches >> 1];
}

/**
 * @param module a LoadedModule in `in-process` isolation
 * @returns {Promise<Array<{ stage: string, us: number }>>}
 */
export async function profileDecide(module, action, contexts, { quick }) {
  const plan = quick ? { calls: 2_000, batches: 3 } : { calls: 20_000, batches: 7 };
  const spec = module.metadata.actions.get(action);
  const bind = module.binders.get(action);
  const n = contexts.length;
  const entry = { requestId: 'profile', requestTime: 0 };
  const ctxJson = contexts.map((context) => {
    const values = bind(context).values;
    for (const name of spec.system) values[name] = 0;
    return JSON.stringify(values);
  });
  const limit = crossingLimitMs(spec, ctxJson[0]);

  const whole = await perCallUsAsync((i) => decide(module, { action, context: contexts[i % n] }, entry), plan);
  const binding = perCallUs((i) => bind(contexts[i % n]), plan);
  const encoding = perCallUs((i) => JSON.stringify(bind(contexts[i % n]).values), plan) - binding;
  const emptyCrossing = perCallUs(() => module.evaluator.call('__adec_rules', [action, '{}', '{}', '[]'], limit), plan);
  const crossing = perCallUs((i) => module.evaluator.call('__adec_evaluate_batch', [action, ctxJson[i % n]], limit), plan);
  const evaluation = perCallUs((i) => module.evaluator.evaluate(spec, ctxJson[i % n]), plan);
  // The same decisions with the sandbox's answers replayed: bind + encode + compose.
  const recorded = new Map();
  const replay = { ...module, evaluator: { evaluate: (_spec, json) => recorded.get(json) } };
  for (const context of contexts) {
    await decide({ ...module, evaluator: { evaluate: (_spec, json) => { const done = module.evaluator.evaluate(_spec, json); recorded.set(json, done); return done; } } }, { action, context }, entry);
  }
  const host = await perCallUsAsync((i) => decide(replay, { action, context: contexts[i % n] }, entry), plan);
  return [
    { stage: 'bind and validate the context', us: binding },
    { stage: 'encode the context for the isolate', us: encoding },
    { stage: 'one crossing: derive, filter and evaluate every predicate in the isolate', us: crossing },
    { stage: '… of which a crossing that evaluates no rule (isolated-vm call under a time limit)', us: emptyCrossing },
    { stage: 'decode the per-rule results', us: evaluation - crossing },
    { stage: 'compose: suppression, aggregation, traces, work_frame, metadata', us: host - binding - encoding },
    { stage: 'whole decide()', us: whole },
  ];
}
