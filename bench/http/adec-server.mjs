/**
 * The decision service under load, in a process of its own so the load generator never shares
 * its event loop (http-bench.mjs starts it with `node --no-node-snapshot`, as `adec serve` runs).
 *
 * Publishes the 50-rule synthetic world, signed and approved, into `store` (its own keys: the
 * trust configuration never leaves this process), then starts `startDecisionHost` on loopback
 * with the given audit location and a rate limit that never triggers, trusting the caller's
 * token key. Prints one JSON line when it listens: `{ url, pid, routing }`, `routing` being the
 * decide body's `domain`, `action` and `world_model_version`. SIGTERM stops it the way a
 * deployment stops it (in-flight decisions finish and commit, the audit store is closed).
 *
 * Usage: node --no-node-snapshot adec-server.mjs '<json config>'
 *   config: { store, audit, auth: { issuer, audience, keys: [public JWK] }, isolation?, sandbox?, connectionLimits? }
 *   (`sandbox`: the host's sandbox options, e.g. `recycleAfterDecisions`; `isolation` overrides its own)
 *
 * `audit: null` is for the profile only (profile-http.mjs): a store that commits nothing and
 * answers at once, so a load run shows what the audit costs by difference. Not a configuration
 * adec offers: a decision is never answered before its record is committed.
 */
import { startDecisionHost } from '../../packages/server/dist/index.js';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';

const RULES = 50;
/** High enough that the limiter never refuses: the bench measures decisions, not refusals. */
const UNLIMITED = { perSecond: 1e9, burst: 1e9 };

/** Accepts every record without writing it; a lookup finds nothing. */
const discardingStore = {
  backend: 'sqlite',
  append: async () => ({ ok: true, record: null }),
  get: async () => ({ ok: true, value: null }),
  chains: async () => ({ ok: true, value: [] }),
  readChain: async () => ({ ok: true, value: [] }),
  purge: async () => ({ ok: true, value: [] }),
  memory: { read: async () => ({ ok: true, value: { values: {}, updatedAt: null, outcomeIds: [] } }), write: async () => ({ ok: true, value: null }) },
  stats: () => ({ queued: 0, commits: 0, committedRecords: 0 }),
  close: async () => {},
};

const config = JSON.parse(process.argv[2]);
const published = await publishSynthetic(config.store, RULES, { rulesPerAction: RULES });
const started = await startDecisionHost({
  modules: config.store,
  trust: published.trust,
  auth: config.auth,
  audit: config.audit ?? discardingStore,
  port: 0,
  rateLimit: UNLIMITED,
  ...((config.isolation !== undefined || config.sandbox !== undefined) && { sandbox: { ...config.sandbox, ...(config.isolation !== undefined && { isolation: config.isolation }) } }),
  ...(config.connectionLimits !== undefined && { connectionLimits: config.connectionLimits }),
});
if (!started.ok) {
  console.error(`adec-server: ${started.code}: ${started.message}`);
  process.exit(1);
}
const { host } = started;
const { org, domain, version, action } = published.key;
console.log(JSON.stringify({ url: host.url, pid: process.pid, org, routing: { domain, action, world_model_version: version } }));

process.once('SIGTERM', async () => {
  await host.close();
  process.exit(0);
});
