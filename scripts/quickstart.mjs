#!/usr/bin/env node
/**
 * `npm start`: the main job on the embedded defaults, with the real commands a deployment uses.
 *
 *   adec build    examples/benefits            → a content-hashed bundle
 *   adec keygen   CI, operator and token-issuer keys (development keys, in .adec-demo/)
 *   adec sign / adec approve                   → the bundle signed and approved
 *   adec deploy                                → verified, into .adec-demo/modules/<org>/<domain>/<version>/
 *   adec serve    on embedded SQLite           → the decision service on loopback
 *   adec token    + POST /v1/decide            → one authenticated decision
 *   adec audit verify                          → its record, hash-chained, verified
 *
 * The decision is printed last, in brief (decision-summary.mjs: status, winning rule and
 * reason, work frame, matched rules, where the record is); `--json` prints the whole response
 * instead (`npm start -- --json`), which is also written to .adec-demo/decision.json.
 *
 * Everything lands in .adec-demo/ (recreated on each run); the service is stopped at the end.
 * `--adec <bin/adec.js> --dir <dir>` runs another install's adec in another directory: the test
 * of the packed tarballs runs this same script against an install from them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { decisionSummary } from './decision-summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({ options: { adec: { type: 'string' }, dir: { type: 'string' }, json: { type: 'boolean', default: false } } });
const demo = resolve(options.dir ?? join(root, '.adec-demo'));
const adecBin = resolve(options.adec ?? join(root, 'packages/cli/bin/adec.js'));
const ISSUER = 'https://demo.adec.local';
const AUDIENCE = 'adec-decisions';

const adec = (...args) => execFileSync(process.execPath, [adecBin, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const step = (text) => process.stderr.write(`\n▶ ${text}\n`);

rmSync(demo, { recursive: true, force: true });
mkdirSync(demo);

step('adec build examples/benefits');
process.stderr.write(adec('build', 'examples/benefits', '--out', join(demo, 'build')));

step('adec keygen: development keys for CI (signing), an operator (approval) and the token issuer');
for (const name of ['ci', 'operator', 'issuer']) adec('keygen', '--out', join(demo, 'keys'), '--name', name);

step('adec sign + adec approve the bundle');
const bundle = join(demo, 'build');
adec('sign', bundle, '--key', join(demo, 'keys/ci.key.jwk'));
adec('approve', bundle, '--key', join(demo, 'keys/operator.key.jwk'), '--expires', '30d');
writeFileSync(join(demo, 'trust.json'), `${JSON.stringify({ signing_keys: ['keys/ci.pub.jwk'], approval_keys: ['keys/operator.pub.jwk'] }, null, 2)}\n`);

step('adec deploy: verified against trust.json, into .adec-demo/modules/<org>/<domain>/<version>/');
process.stderr.write(adec('deploy', bundle, '--modules', join(demo, 'modules'), '--trust', join(demo, 'trust.json')));
writeFileSync(join(demo, 'jwks.json'), `${JSON.stringify({ keys: [JSON.parse(readFileSync(join(demo, 'keys/issuer.pub.jwk'), 'utf8'))] }, null, 2)}\n`);
writeFileSync(join(demo, 'serve.json'), `${JSON.stringify({ modules: 'modules', trust: 'trust.json', jwks: 'jwks.json', issuer: ISSUER, audience: AUDIENCE, audit: 'audit.db', port: 0, 'log-level': 'warn' }, null, 2)}\n`);

step('adec serve --config .adec-demo/serve.json (SQLite audit store .adec-demo/audit.db)');
const server = spawn(process.execPath, ['--no-node-snapshot', adecBin, 'serve', '--config', join(demo, 'serve.json'), '--log-level', 'info'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((found, failed) => {
  let buffered = '';
  server.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (const line of buffered.split('\n').slice(0, -1)) {
      const entry = JSON.parse(line);
      if (entry.msg === 'adec serve is ready') found(entry.url);
    }
    buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
  });
  server.on('exit', (code) => failed(new Error(`adec serve exited with ${code} before it was ready`)));
});
process.stderr.write(`  listening on ${url}\n`);

try {
  step('adec token --org acme: a JWT for agent "benefits-agent", acting for alice@acme.test');
  const token = adec('token', '--key', join(demo, 'keys/issuer.key.jwk'), '--org', 'acme', '--sub', 'benefits-agent', '--act', 'alice@acme.test', '--issuer', ISSUER, '--audience', AUDIENCE, '--expires', '5m').trim();

  step(`POST ${url}/v1/decide: may the agent add a 27-year-old full-time student as a child dependent?`);
  const context = JSON.parse(readFileSync(join(root, 'examples/benefits/requests/adult-student.json'), 'utf8'));
  const response = await fetch(`${url}/v1/decide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ domain: 'hr.benefits', action: 'add_dependent', world_model_version: '1.4.0', context }),
  });
  const decision = await response.json();
  const location = response.headers.get('location');
  process.stderr.write(`  HTTP ${response.status}, stored at ${location}\n`);
  writeFileSync(join(demo, 'decision.json'), `${JSON.stringify(decision, null, 2)}\n`);
  if (response.status !== 200) process.exitCode = 1;

  step('adec audit verify --audit .adec-demo/audit.db');
  server.kill('SIGTERM');
  await new Promise((stopped) => server.on('exit', stopped));
  process.stderr.write(adec('audit', 'verify', '--audit', join(demo, 'audit.db')));

  // Last, so that it is what the reader sees: the decision in brief, or all of it with --json.
  if (options.json || response.status !== 200) {
    process.stdout.write(`${JSON.stringify(decision, null, 2)}\n`);
  } else {
    const shown = (path) => relative(process.cwd(), path) || '.';
    process.stdout.write(`\n${decisionSummary(decision, {
      record: `decision ${decision.decision_metadata.request_id} in ${shown(join(demo, 'audit.db'))}, hash-chained (GET ${location} while adec serve runs)`,
      response: `${shown(join(demo, 'decision.json'))} (or \`npm start -- --json\`)`,
    })}`);
  }
} finally {
  if (server.exitCode === null) server.kill('SIGTERM');
}
