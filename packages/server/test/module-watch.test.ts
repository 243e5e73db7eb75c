/**
 * `adec serve` follows its bundle directory: every world version is loaded (and prepared) at
 * start and each refusal logged with its reason; a newly approved bundle replaces the served module without a
 * restart; a rollback is refused and logged once while the approved module goes on serving.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveModule, formatSignatureFile } from '@adec/runtime';
import { asTestBundle, buildFixture, injectIntoBundle, publish, type TestBundle } from '../../../test/support/runtime.js';
import { objectAt, type JsonObject } from './json-body.js';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from './service-fixture.js';

const WORLD = { org: 'acme', domain: 'hr.benefits', version: '1.4.0' };
const logs: JsonObject[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(objectAt(JSON.parse(line)));
    done();
  },
});

let service: ServiceFixture;
let original: TestBundle;
let saved: string;
beforeAll(async () => {
  original = asTestBundle(await buildFixture('examples/benefits'));
  service = await startService({ logger: { level: 'info', stream: logStream } }, (modules) => {
    // A bundle filed under another org's directory: its manifest says acme.
    cpSync(join(modules, 'acme/hr.benefits/1.4.0'), join(modules, 'globex/hr.benefits/1.4.0'), { recursive: true });
  });
  saved = mkdtempSync(join(tmpdir(), 'adec-watch-saved-'));
  cpSync(join(service.modules, 'acme/hr.benefits/1.4.0'), saved, { recursive: true });
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
});

async function servedHash(): Promise<string> {
  const decision = (await (await service.post('/v1/decide', addDependent(BY_STATUS.GREEN))).json()) as { decision_metadata: { module: { module_hash: string } } };
  return decision.decision_metadata.module.module_hash;
}

const messages = () => logs.map((entry) => String(entry['msg']));

describe('the service follows its bundle directory', () => {
  it('loads every world at start and logs each refusal with its reason', () => {
    // With what its load prepared for selections (docs/spec/selection.md §7.4): this world has no scenario.
    const prepared = { scenarios: 0, skills: 0, output_schemas: 0, prohibitions: 0, warm_up_skill_runs: 0, warm_up_cycles: 0 };
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'module loaded', world: WORLD, moduleHash: original.manifest['module_hash'], preparation: expect.objectContaining({ prepared, problem: null }) }));
    expect(logs).toContainEqual(expect.objectContaining({ code: 'MODULE_INVALID', world: { org: 'globex', domain: 'hr.benefits', version: '1.4.0' }, msg: expect.stringMatching(/^module refused: the store returned .* for module globex\/hr\.benefits@1\.4\.0/) }));
  });

  it('serves a newly approved bundle without a restart, and refuses a rollback, logging each once', async () => {
    expect(await servedHash()).toBe(original.manifest['module_hash']);
    const updated = injectIntoBundle(original, 'm.__revision = 2;');
    const dir = publish(updated, service.modules, service.keys, { approve: false });
    const approval = approveModule({ moduleHash: String(updated.manifest['module_hash']), world: WORLD, issuedAt: Date.now() + 1_000 }, service.keys.approver);
    writeFileSync(join(dir, 'approval.json'), formatSignatureFile(approval));
    await service.host.scanModules();
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'module replaced by a newer approved bundle', moduleHash: updated.manifest['module_hash'], replaced: original.manifest['module_hash'] }));
    expect(await servedHash()).toBe(updated.manifest['module_hash']);

    cpSync(saved, dir, { recursive: true });
    await service.host.scanModules();
    await service.host.scanModules();
    const rollbacks = logs.filter((entry) => entry.code === 'APPROVAL_OLDER_THAN_LOADED');
    expect(rollbacks).toHaveLength(1);
    expect(rollbacks[0]).toMatchObject({ level: 40, result: 'refused', serving: updated.manifest['module_hash'] });
    expect(await servedHash()).toBe(updated.manifest['module_hash']);
    expect(messages().filter((message) => message === 'module loaded')).toHaveLength(1);
    // Decisions are counted in /metrics, not logged one by one.
    expect(messages()).not.toContain('incoming request');
    expect(messages()).not.toContain('request completed');
  });
});
