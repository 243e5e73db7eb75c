/**
 * The decision service over real HTTP on loopback: every status of the benefits world through
 * POST /v1/decide, each stored before it is answered and retrievable, replayable and verifiable;
 * each error code produced by a real bad request; tenants kept apart.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChains } from '@adec/audit';
import { OPENAPI_DOCUMENT } from '@adec/server';
import { arrayAt, at, jsonObject as json, objectAt, stringAt } from './json-body.js';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from './service-fixture.js';

const CHILD = BY_STATUS.GREEN;

let service: ServiceFixture;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
});

async function expectError(response: Response, status: number, code: string, message?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await json(response);
  expect(Object.keys(body)).toEqual(['error']);
  expect(body['error']).toMatchObject({ code, message: expect.any(String), details: expect.any(Array) });
  if (message !== undefined) expect(stringAt(body, 'error', 'message')).toMatch(message);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return body['error'] as { code: string; message: string; details: { path: string; message: string }[] };
}

describe('POST /v1/decide', () => {
  it.each(Object.entries(BY_STATUS))('answers %s, stores it, and replays it identically', async (status, context) => {
    const response = await service.post('/v1/decide', addDependent(context));
    expect(response.status).toBe(200);
    const decision = await json(response);
    expect(decision['status']).toBe(status);
    expect(Object.keys(decision)).toEqual(['status', 'work_frame', 'decision_metadata']);
    const id = stringAt(decision, 'decision_metadata', 'request_id');
    expect(response.headers.get('location')).toBe(`/v1/decisions/${id}`);
    expect(at(decision, 'decision_metadata', 'module')).toMatchObject({ org: 'acme', domain: 'hr.benefits', version: '1.4.0', action: 'add_dependent' });

    const stored = await json(await service.get(`/v1/decisions/${id}`));
    expect(stored).toMatchObject({ decision_id: id, kind: 'adjudication', request: { context }, caller: { subject: 'agent-7', delegation: [] }, response: decision });
    expect(stringAt(stored, 'chain', 'hash')).toMatch(/^[0-9a-f]{64}$/);

    const replay = await json(await service.post(`/v1/decisions/${id}/replay`, {}));
    expect(replay).toEqual({ decision_id: id, identical: true, module_hash: at(decision, 'decision_metadata', 'module', 'module_hash'), differences: [], taken_as_recorded: [] });
  });

  it.each(Object.entries(BY_STATUS))('?traces=false answers %s without the traces; the record keeps them, and a retry is answered the same way', async (_status, context) => {
    const requestId = `no-traces-${_status}`;
    const full = await json(await service.post('/v1/decide', { ...addDependent(context), request_id: `${requestId}-full` }));
    const response = await service.post('/v1/decide?traces=false', { ...addDependent(context), request_id: requestId });
    expect(response.status).toBe(200);
    const text = await response.text();
    const answer: unknown = JSON.parse(text);
    const { predicate_traces: traces, request_id: fullId, ...fullRest } = objectAt(full, 'decision_metadata');
    expect(fullId).toBe(`${requestId}-full`);
    expect(arrayAt(traces).length).toBeGreaterThan(0);
    expect(at(answer, 'status')).toBe(full['status']);
    expect(at(answer, 'work_frame')).toEqual(full['work_frame']);
    expect(at(answer, 'decision_metadata')).toEqual({ ...fullRest, request_id: requestId, request_time: at(answer, 'decision_metadata', 'request_time') });
    expect(text.length).toBeLessThan(JSON.stringify(full).length);

    const stored = await json(await service.get(`/v1/decisions/${requestId}`));
    expect(at(stored, 'response', 'decision_metadata', 'predicate_traces')).toEqual(traces);
    const retried = await service.post('/v1/decide?traces=false', { ...addDependent(context), request_id: requestId });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await retried.text()).toBe(text);
    expect(await json(await service.post(`/v1/decisions/${requestId}/replay`, {}))).toMatchObject({ identical: true });
  });

  it('refuses an unknown or invalid query parameter with a 400 naming it, and records nothing', async () => {
    const cases = fc.sample(
      fc.oneof(
        fc.constantFrom('traces=0', 'traces=no', 'traces=FALSE', 'traces=', 'traces', 'traces=false&traces=false', 'trace=false', 'explain=full', 'traces=false&x=1'),
        fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).filter(([name]) => name !== 'traces').map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
        fc.string({ maxLength: 12 }).filter((value) => value !== 'true' && value !== 'false').map((value) => `traces=${encodeURIComponent(value)}`),
      ),
      { seed: 2_611, numRuns: 60 },
    );
    for (const [i, query] of cases.entries()) {
      const requestId = `bad-query-${i}`;
      const error = await expectError(await service.post(`/v1/decide?${query}`, { ...addDependent(CHILD), request_id: requestId }), 400, 'INVALID_QUERY', /query parameter/);
      expect(error.details.length, query).toBeGreaterThan(0);
      expect(error.details.every((detail) => detail.path.startsWith('?')), query).toBe(true);
      expect((await service.get(`/v1/decisions/${requestId}`)).status, query).toBe(404);
    }
    expect((await service.post('/v1/decide?traces=true', addDependent(CHILD))).status).toBe(200);
  });

  it('records the caller and its RFC 8693 delegation chain with the decision', async () => {
    const token = await service.issuer.token({ sub: 'agent-9', act: { sub: 'planner-bot', client_id: 'c-1', act: { sub: 'alice@acme.test', iss: 'https://idp.acme.test' } } });
    const decision = await json(await service.post('/v1/decide', addDependent(CHILD), token));
    const stored = await json(await service.get(`/v1/decisions/${stringAt(decision, 'decision_metadata', 'request_id')}`));
    expect(stored['caller']).toEqual({
      subject: 'agent-9',
      token_id: null,
      delegation: [
        { subject: 'planner-bot', issuer: null, client_id: 'c-1' },
        { subject: 'alice@acme.test', issuer: 'https://idp.acme.test', client_id: null },
      ],
    });
  });

  it('an invalid context is a YELLOW decision, stored like any other', async () => {
    const response = await service.post('/v1/decide', addDependent({ relationship: 'cousin', dependent_age: 'ten' }));
    expect(response.status).toBe(200);
    const decision = await json(response);
    expect(decision).toMatchObject({ status: 'YELLOW', work_frame: { next_action: 'gather_evidence_and_retry' } });
    expect((await service.get(`/v1/decisions/${stringAt(decision, 'decision_metadata', 'request_id')}`)).status).toBe(200);
  });

  it('a retry with the same request_id and body returns the stored decision; another body is a 409', async () => {
    const body = addDependent(BY_STATUS.RED, { request_id: 'retry-1' });
    const first = await service.post('/v1/decide', body);
    const firstDecision = await json(first);
    // Same meaning, different key order and spacing: the same request.
    const again = await service.post('/v1/decide', `{ "context": ${JSON.stringify(BY_STATUS.RED)}, "request_id": "retry-1", "world_model_version": "1.4.0", "action": "add_dependent", "domain": "hr.benefits" }`);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await json(again)).toEqual(firstDecision);
    const conflict = await expectError(await service.post('/v1/decide', addDependent(CHILD, { request_id: 'retry-1' })), 409, 'DUPLICATE_REQUEST_ID', /retry-1 was already used for a different request/);
    expect(conflict.details).toEqual([{ path: '$.request_id', message: 'names a decision made for a different request' }]);
  });

  it('concurrent retries of one request_id make one decision and one record', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => service.post('/v1/decide', addDependent(CHILD, { request_id: 'race-1' }))));
    const bodies = await Promise.all(responses.map(json));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
  });
});

describe('bad requests get one error shape, with JSON paths', () => {
  it('malformed JSON, a repeated key and invalid UTF-8 are 400 with their position', async () => {
    expect((await expectError(await service.post('/v1/decide', '{"domain": "hr.benefits",\n "action": }'), 400, 'MALFORMED_JSON', /is not JSON/)).details[0]!.message).toMatch(/line 2/);
    await expectError(await service.post('/v1/decide', '{"domain": "a", "domain": "b"}'), 400, 'DUPLICATE_KEY', /repeats a key/);
    await expectError(await service.post('/v1/decide', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), 400, 'MALFORMED_JSON', /not UTF-8/);
    await expectError(await service.post('/v1/decide', ''), 400, 'MALFORMED_JSON');
  });

  it('wrong types and unknown fields are listed together with their paths', async () => {
    const error = await expectError(await service.post('/v1/decide', { domain: 7, action: '', context: [], request_id: 'has space', extra: true }), 400, 'INVALID_REQUEST', /5 problems|6 problems/);
    expect(error.details).toEqual([
      { path: '$.domain', message: 'expected a string, found a number' },
      { path: '$.action', message: 'must not be empty' },
      { path: '$.world_model_version', message: 'is required' },
      { path: '$.context', message: 'expected an object, found an array' },
      { path: '$.request_id', message: expect.stringMatching(/must be 1–128 letters/) },
      { path: '$.extra', message: expect.stringMatching(/is not a field of a decide request/) },
    ]);
    await expectError(await service.post('/v1/decide', [1, 2]), 400, 'INVALID_REQUEST', /must be a JSON object/);
  });

  it('an unknown module or action is 404', async () => {
    await expectError(await service.post('/v1/decide', { ...addDependent(CHILD), world_model_version: '9.9.9' }), 404, 'MODULE_NOT_FOUND', /hr\.benefits@9\.9\.9/);
    await expectError(await service.post('/v1/decide', { ...addDependent(CHILD), action: 'adopt_pet' }), 404, 'UNKNOWN_ACTION', /adopt_pet/);
  });

  it('a missing, expired, wrong-audience or unsigned token is 401 with a challenge', async () => {
    const missing = await service.post('/v1/decide', addDependent(CHILD), null);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    await expectError(missing, 401, 'TOKEN_MISSING');
    await expectError(await service.post('/v1/decide', addDependent(CHILD), await service.issuer.token({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 })), 401, 'TOKEN_EXPIRED');
    await expectError(await service.post('/v1/decide', addDependent(CHILD), await service.issuer.token({ aud: 'someone-else' })), 401, 'TOKEN_AUDIENCE_INVALID');
    const claims = Buffer.from(JSON.stringify({ org_id: 'acme', sub: 'x', iss: 'https://issuer.test', aud: 'adec-decisions', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url');
    await expectError(await service.post('/v1/decide', addDependent(CHILD), `${Buffer.from('{"alg":"none"}').toString('base64url')}.${claims}.`), 401, 'TOKEN_ALGORITHM_REFUSED');
  });

  it("another tenant's token can neither decide as nor read the tenant", async () => {
    const globex = await service.issuer.token({ org_id: 'globex' });
    const error = await expectError(await service.post('/v1/decide', addDependent(CHILD, { org_id: 'acme' }), globex), 403, 'WRONG_TENANT', /token is for org globex, not acme/);
    expect(error.details).toEqual([{ path: '$.org_id', message: "must be the token's org (globex)" }]);
    await expectError(await service.post('/v1/decide', addDependent(CHILD), globex), 404, 'MODULE_NOT_FOUND', /globex/);
    const acmeDecision = await json(await service.post('/v1/decide', addDependent(CHILD)));
    const id = stringAt(acmeDecision, 'decision_metadata', 'request_id');
    await expectError(await service.get(`/v1/decisions/${id}`, globex), 404, 'DECISION_NOT_FOUND');
    await expectError(await service.post(`/v1/decisions/${id}/replay`, {}, globex), 404, 'DECISION_NOT_FOUND');
  });

  it('an oversized body is 413, a non-JSON body 415, an unknown route 404', async () => {
    await expectError(await service.post('/v1/decide', JSON.stringify(addDependent({ ...CHILD, note: 'x'.repeat(1_100_000) }))), 413, 'REQUEST_TOO_LARGE');
    await expectError(await service.post('/v1/decide', 'domain=hr', undefined, { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectError(await service.get('/v1/nothing-here'), 404, 'ROUTE_NOT_FOUND');
  });
});

describe('generated bad input', () => {
  const valid = addDependent(CHILD);
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  const mutatedRequest = fc.record({
    field: fc.constantFrom('domain', 'action', 'world_model_version', 'context', 'request_id', 'org_id', 'extra', '__proto__', 'constructor'),
    value: fc.oneof(anyJson, fc.string({ unit: 'binary', maxLength: 300 }), fc.constant(undefined)),
  }).map(({ field, value }) => JSON.stringify({ ...valid, [field]: value }));
  const bodies = fc.oneof(
    mutatedRequest,
    anyJson.map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }),
    fc.constant(`{"context": ${'['.repeat(5_000)}`),
  );

  it('every body gets a decision or one structured error, never a 500, and the service keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await service.post('/v1/decide', body);
        const parsed = await json(response);
        if (response.status === 200) expect(['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED']).toContain(parsed['status']);
        else {
          expect([400, 403, 404, 409, 413]).toContain(response.status);
          expect(Object.keys(parsed)).toEqual(['error']);
          expect(stringAt(parsed, 'error', 'message').length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 400 },
    );
    expect((await service.post('/v1/decide', valid)).status).toBe(200);
  });

  it('random Authorization headers are 401, never a decision', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }).filter((text) => /^[\x20-\x7e]*$/.test(text)), async (header) => {
        const response = await service.post('/v1/decide', valid, null, { authorization: header });
        expect(response.status).toBe(401);
        expect(stringAt(await json(response), 'error', 'code')).toMatch(/^TOKEN_/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('limits', () => {
  it('beyond the decisions in flight, 503 OVERLOADED with Retry-After, and nothing is lost', async () => {
    const small = await startService({ maxInFlight: 2 });
    try {
      const responses = await Promise.all(Array.from({ length: 40 }, () => small.post('/v1/decide', addDependent(CHILD))));
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 503).every((status) => status === 200)).toBe(true);
      const refused = responses.find((response) => response.status === 503)!;
      expect(refused.headers.get('retry-after')).toBe('1');
      await expectError(refused, 503, 'OVERLOADED', /at its limit of 2 decisions in flight/);
      const report = await verifyChains(small.host.store);
      expect(report.ok && report.chains[0]!.records).toBe(statuses.filter((status) => status === 200).length);
    } finally {
      await small.close();
    }
  });

  it('a tenant over its rate limit gets 429 with Retry-After; other tenants do not', async () => {
    // A slow refill: the first decision loads the module, which must not earn a token back.
    const limited = await startService({ rateLimit: { perSecond: 0.01, burst: 3 } });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.post('/v1/decide', addDependent(CHILD))).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await limited.post('/v1/decide', addDependent(CHILD));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectError(refused, 429, 'RATE_LIMITED', /org acme is over its rate limit of 0.01 decisions per second/);
      const other = await limited.post('/v1/decide', addDependent(CHILD), await limited.issuer.token({ org_id: 'globex' }));
      expect(other.status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

describe('the audit trail and operations', () => {
  it('every answered decision is in a valid chain', async () => {
    const report = await verifyChains(service.host.store);
    expect(report).toMatchObject({ ok: true, valid: true });
    if (report.ok) expect(report.chains.find((chain) => chain.tenant === 'acme')!.records).toBeGreaterThan(8);
  });

  it('health, readiness, metrics and the OpenAPI document are served', async () => {
    expect(await json(await service.get('/health/live', null))).toEqual({ status: 'live' });
    expect(await json(await service.get('/health/ready', null))).toEqual({ status: 'ready' });
    const metrics = await (await service.get('/metrics', null)).text();
    expect(metrics).toMatch(/adec_decisions_total\{status="RED"\} [1-9]/);
    expect(metrics).toMatch(/adec_refusals_total\{code="TOKEN_EXPIRED"\} 1/);
    expect(metrics).toMatch(/adec_audit_commit_records_count [1-9]/);
    expect(metrics).toMatch(/adec_module_loads_total 1/);
    expect(metrics).toMatch(/adec_modules\{isolation="process",reason="NOT_REBUILT"\} 1/);
    expect(metrics).toMatch(/adec_sandbox_resident_memory_bytes\{slot="\d+"\} [1-9]/);
    expect(metrics).toMatch(/adec_sandbox_isolate_heap_bytes\{slot="\d+"\} [1-9]/);
    expect(metrics).toMatch(/adec_sandbox_recycles_total 0/);
    expect(metrics).toMatch(/adec_sandbox_restarts_total 0/);
    expect(await json(await service.get('/openapi.json', null))).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)));
  });

  it('the OpenAPI document names exactly the routes the service has', () => {
    const documented = Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ':$1') })));
    for (const route of documented) expect(service.host.app.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    // Every route the service registered (HEAD is Fastify's automatic twin of each GET) is documented.
    const served = [...service.host.app.printRoutes({ commonPrefix: false }).matchAll(/\(([A-Z, ]+)\)/g)].flatMap(([, methods]) => methods!.split(', ').filter((method) => method !== 'HEAD'));
    expect(served).toHaveLength(documented.length);
  });
});
