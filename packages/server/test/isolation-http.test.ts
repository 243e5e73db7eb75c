/**
 * Where the service runs a module, seen from outside: a module approved after a rebuild is
 * answered from a sandbox process while its code is verified (when a request comes that early)
 * and from this process after;
 * each answer says where it was made, `/metrics` counts the worlds by place and reason, and a
 * decision made in the sandbox process replays as identical in process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asTestBundle, buildFixture, publish } from '../../../test/support/runtime.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const REQUEST = { domain: 'hr.benefits', action: 'add_dependent', world_model_version: '1.4.0', context: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } };

interface Answer {
  readonly status: string;
  readonly decision_metadata: { readonly request_id: string; readonly module: { readonly isolation: { readonly mode: string; readonly reason: string } } };
}

let service: ServiceFixture;
beforeAll(async () => {
  const benefits = asTestBundle(await buildFixture('examples/benefits'));
  // The fixture's bundle, approved again as `adec approve` does after its rebuild.
  service = await startService({}, (modules, keys) => publish(benefits, modules, keys, { rebuilt: true }));
});
afterAll(async () => {
  await service.close();
});

async function decideOnce(): Promise<Answer> {
  const response = await service.post('/v1/decide', REQUEST);
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
}

describe('a module approved after a rebuild', () => {
  it('is answered from a sandbox process until its code is verified, then in process; the first answers replay as identical', async () => {
    const first = await decideOnce();
    // Verification runs on a thread from the moment the module is served; on a quiet machine it
    // can finish before the first answer (the loader's own tests, runtime isolation.test.ts, hold
    // the order step by step). Whatever the first answer says, it is one of the two.
    expect([{ mode: 'process', reason: 'VERIFYING' }, { mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' }]).toContainEqual(first.decision_metadata.module.isolation);

    let answer = first;
    for (let waited = 0; answer.decision_metadata.module.isolation.mode !== 'in-process' && waited < 20_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await decideOnce();
    }
    expect(answer.decision_metadata.module.isolation).toEqual({ mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' });
    expect(answer.status).toBe(first.status);

    const replay = await service.post(`/v1/decisions/${first.decision_metadata.request_id}/replay`, {});
    expect(await replay.json()).toMatchObject({ identical: true, differences: [] });

    const metrics = await (await service.get('/metrics', null)).text();
    expect(metrics).toMatch(/adec_modules\{isolation="in-process",reason="REBUILT_AND_VERIFIED"\} 1/);
    expect(metrics).not.toMatch(/adec_modules\{isolation="process"/);
  });
});
