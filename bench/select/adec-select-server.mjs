/**
 * The decision service serving the fitness world's selections, in a process of its own (the
 * HTTP bench starts it with `node --no-node-snapshot`): publishes examples/fitness signed and
 * approved into `store`, starts `startDecisionHost` on loopback with the given audit location,
 * a rate limit that never triggers, and a model that answers at once (an llm_stub with a valid
 * rationale) when `model` is set, so skill_enhanced selections measure everything but a model's
 * latency. Prints `{ url, pid, org }` when it listens; SIGTERM stops it gracefully.
 *
 * Usage: node --no-node-snapshot adec-select-server.mjs '<json config>'
 *   config: { store, audit, auth: { issuer, audience, keys: [public JWK] }, model? }
 */
import { startDecisionHost } from '../../packages/server/dist/index.js';
import { publishWorld } from '../lib/publish-synthetic.mjs';
import { instantModel } from './instant-model.mjs';
import { fitnessFiles } from './select-requests.mjs';

const UNLIMITED = { perSecond: 1e9, burst: 1e9 };

const config = JSON.parse(process.argv[2]);
const published = await publishWorld(config.store, 'fitness', fitnessFiles());
const started = await startDecisionHost({
  modules: config.store,
  trust: published.trust,
  auth: config.auth,
  audit: config.audit,
  port: 0,
  rateLimit: UNLIMITED,
  executors: config.model === true ? [instantModel()] : [],
});
if (!started.ok) {
  console.error(`adec-select-server: ${started.code}: ${started.message}`);
  process.exit(1);
}
const { host } = started;
console.log(JSON.stringify({ url: host.url, pid: process.pid, org: published.key.org }));

process.once('SIGTERM', async () => {
  await host.close();
  process.exit(0);
});
