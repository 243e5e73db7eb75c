/**
 * For the profile only (profile-http.mjs): the decision service wired as `startDecisionHost`
 * wires it (packages/server/src/decision-host.ts), but with an audit store that commits nothing
 * and answers at once, so a load run shows what the audit costs by difference. Not a
 * configuration adec offers: a decision is never answered before its record is committed.
 *
 * Same config and ready line as adec-server.mjs, without `audit`.
 */
import { DEFAULT_REQUEST_LIMITS, DirectoryModuleStore, ModuleLoader } from '../../packages/runtime/dist/index.js';
import { DecisionService, TokenVerifier } from '../../packages/server/dist/index.js';
import { createApp } from '../../packages/server/dist/http/create-app.js';
import { ServiceMetrics } from '../../packages/server/dist/service-metrics.js';
import { publishSynthetic } from '../lib/publish-synthetic.mjs';

const RULES = 50;

/** Accepts every record without writing it; a lookup finds nothing. */
const discardingStore = {
  backend: 'none',
  append: async () => ({ ok: true, record: null }),
  get: async () => ({ ok: true, value: null }),
  chains: async () => ({ ok: true, value: [] }),
  readChain: async () => ({ ok: true, value: [] }),
  purge: async () => ({ ok: true, value: [] }),
  stats: () => ({ queued: 0, commits: 0, committedRecords: 0 }),
  close: async () => {},
};

const config = JSON.parse(process.argv[2]);
const published = await publishSynthetic(config.store, RULES, { rulesPerAction: RULES });
const loader = new ModuleLoader({ store: new DirectoryModuleStore(config.store), trust: published.trust, ...(config.isolation !== undefined && { sandbox: { isolation: config.isolation } }) });
const metrics = new ServiceMetrics();
metrics.watch(loader, discardingStore);
const service = new DecisionService({ loader, store: discardingStore, observer: metrics, rateLimit: { perSecond: 1e9, burst: 1e9 }, maxInFlight: 1_024, decisionTimeoutMs: 5_000 });
const app = createApp({ service, verifier: new TokenVerifier(config.auth), metrics, requestLimits: DEFAULT_REQUEST_LIMITS, isReady: () => true });
await loader.ready();
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const { org, domain, version, action } = published.key;
console.log(JSON.stringify({ url, pid: process.pid, org, routing: { domain, action, world_model_version: version } }));

process.once('SIGTERM', async () => {
  await app.close();
  await loader.close();
  process.exit(0);
});
