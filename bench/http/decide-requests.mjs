/**
 * The request set both servers are loaded with: the decision service's decide body around the
 * warm-decide bench's 256 varied contexts (bench/lib/synthetic-rules.mjs), so the same bytes
 * carry the same meaning to adec and to Fastify + Cedar. Over the 256, every status occurs
 * (most are GREEN with no rule matched; RED, GREEN-SKIP and YELLOW the rest), and every
 * attribute shape is exercised, the optional `score` present in half.
 */
import { syntheticContexts } from '../lib/synthetic-rules.mjs';
import { syntheticActionName } from '../lib/synthetic-world.mjs';

const REQUESTS = 256;

/** The synthetic world's routing (synthetic-world.mjs), as a decide body names it. */
export const SYNTHETIC_ROUTING = { domain: 'synthetic', action: syntheticActionName(0), world_model_version: '1.0.0' };

/** @returns {string[]} the decide bodies, as JSON text */
export function decideBodies() {
  return syntheticContexts(REQUESTS).map((context) => JSON.stringify({ ...SYNTHETIC_ROUTING, context }));
}
