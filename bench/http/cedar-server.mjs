/**
 * The baseline the decision service is held against: a bare Fastify 5 server around Cedar
 * evaluating the same 50 synthetic rules exactly as the warm-decide peer does
 * (bench/peers/cedar.mjs, completed by the shared winner-takes-all), with no audit, no
 * authentication and no rate limit. Fastify's own JSON parser, no logger.
 *
 * `POST /decide` takes the decision service's body, `{ domain, action, world_model_version,
 * context }`, answers the synthetic routing with `{ status, winning_rule, matched_rules }`,
 * anything else with a 404, and a body without an object `context` with a 400.
 *
 * Prints one JSON line when it listens, `{ url, pid }`; SIGTERM closes it.
 *
 * Usage: node --no-node-snapshot cedar-server.mjs
 */
import Fastify from 'fastify';
import { prepareCedar } from '../peers/cedar.mjs';
import { evaluationOrder, winnerTakesAll } from '../peers/winner-takes-all.mjs';
import { syntheticRules } from '../lib/synthetic-rules.mjs';
import { SYNTHETIC_ROUTING } from './decide-requests.mjs';

const RULES = 50;

const rules = syntheticRules(RULES);
const cedar = prepareCedar(rules);
const order = evaluationOrder(rules);

const app = Fastify({ logger: false });
app.post('/decide', async (request, reply) => {
  const { domain, action, world_model_version: version, context } = request.body ?? {};
  if (context === null || typeof context !== 'object' || Array.isArray(context)) return reply.code(400).send({ error: 'context must be an object' });
  if (domain !== SYNTHETIC_ROUTING.domain || action !== SYNTHETIC_ROUTING.action || version !== SYNTHETIC_ROUTING.world_model_version) {
    return reply.code(404).send({ error: `no action ${domain}/${action}@${version}` });
  }
  const matched = cedar.matched(context);
  const { status, winningRule } = winnerTakesAll(order, matched);
  return { status, winning_rule: winningRule, matched_rules: matched };
});

const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ url, pid: process.pid }));

process.once('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
