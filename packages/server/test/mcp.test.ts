/**
 * The decide operation as the MCP tool `decide`, called with the SDK's own client. Over
 * Streamable HTTP against a real service: the same answers as POST /v1/decide, each audited,
 * behind the same authentication, with the service's error codes. Over stdio against `adec mcp`
 * started as a local agent starts it: the decision is recorded in the audit store, and a token
 * that does not verify keeps it from starting.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DecisionResponse, plainSchema } from '@adec/contracts';
import { openAuditStore, verifyChains } from '@adec/audit';
import { OPENAPI_DOCUMENT, TokenVerifier, tokenCaller } from '@adec/server';
import { decideToolServer } from '../src/mcp/decide-tool.js';
import { repoPath } from '../../../test/support/repo.js';
import { prepareDeployment, type Deployment } from './serve-process.js';
import { at, jsonObject, objectAt, stringAt, type JsonObject } from './json-body.js';
import { addDependent, AUDIENCE, BY_STATUS, ISSUER, startService, type ServiceFixture } from './service-fixture.js';



/** The decision of a successful call, checked to be the same as the call's text. */
function decisionOf(result: CallToolResult): JsonObject {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const decision = objectAt(result.structuredContent);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(decision) }]);
  return decision;
}

/** The text of an error result. */
function refusalOf(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const [content] = result.content;
  expect(content?.type).toBe('text');
  const text = (content as { text: string }).text;
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  return text;
}

async function decide(client: Client, body: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name: 'decide', arguments: body })) as CallToolResult;
}

let service: ServiceFixture;
const clients: Client[] = [];
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
});

describe('over Streamable HTTP (POST /v1/mcp)', () => {
  /** A client connected as the token's holder (by default a token of acme's agent-7); null: no token. */
  async function connect(token?: string | null, fixture: ServiceFixture = service): Promise<Client> {
    const bearer = token === undefined ? await fixture.issuer.token() : token;
    const client = new Client({ name: 'adec-test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/v1/mcp', fixture.host.url!), { requestInit: { headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it('lists two tools: `decide`, with the decide request as input and the decision as output, and `select`, with the select request and the DecisionResponse of docs/spec/selection.md §3.9', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['decide', 'select']);
    const [tool, select] = tools;
    expect(select!.inputSchema).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT.components.schemas.SelectRequest)));
    expect(select!.outputSchema).toEqual(plainSchema(DecisionResponse));
    expect((OPENAPI_DOCUMENT.components.schemas as Record<string, unknown>)['DecisionResponse']).toEqual(plainSchema(DecisionResponse));
    expect(tool!.inputSchema).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT.components.schemas.DecideRequest)));
    expect(tool!.inputSchema.required).toEqual(['domain', 'action', 'world_model_version', 'context']);
    expect(tool!.outputSchema).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT.components.schemas.Decision)));
    for (const status of Object.keys(BY_STATUS)) expect(tool!.description).toContain(`- ${status}: `);
    expect(tool!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it.each(Object.entries(BY_STATUS))('decides %s as POST /v1/decide does, and audits it', async (status, context) => {
    const client = await connect();
    const decision = decisionOf(await decide(client, addDependent(context)));
    expect(decision['status']).toBe(status);
    const overHttp = await jsonObject(await service.post('/v1/decide', addDependent(context)));
    expect(decision['work_frame']).toEqual(overHttp['work_frame']);
    expect(at(decision, 'decision_metadata', 'matched_rules')).toEqual(at(overHttp, 'decision_metadata', 'matched_rules'));
    expect(at(decision, 'decision_metadata', 'aggregation_outcome')).toEqual(at(overHttp, 'decision_metadata', 'aggregation_outcome'));

    const id = stringAt(decision, 'decision_metadata', 'request_id');
    const stored = await jsonObject(await service.get(`/v1/decisions/${id}`));
    expect(stored).toMatchObject({ decision_id: id, kind: 'adjudication', request: { context }, caller: { subject: 'agent-7' }, response: decision });
  });

  it('shares idempotency with POST /v1/decide: one request_id, one decision, over either', async () => {
    const client = await connect();
    const body = addDependent(BY_STATUS.RED, { request_id: 'mcp-retry-1' });
    const first = decisionOf(await decide(client, body));
    expect(decisionOf(await decide(client, body))).toEqual(first);
    const overHttp = await service.post('/v1/decide', body);
    expect(overHttp.headers.get('idempotent-replayed')).toBe('true');
    expect(await overHttp.json()).toEqual(first);
    expect(refusalOf(await decide(client, addDependent(BY_STATUS.GREEN, { request_id: 'mcp-retry-1' })))).toMatch(/^DUPLICATE_REQUEST_ID: request_id mcp-retry-1 was already used for a different request .*\n\$\.request_id: names a decision made for a different request$/);
  });

  it('refuses a missing token, another audience and a forged token with 401 before any MCP message is read', async () => {
    const refused = async (token: string | null, code: string) => {
      const attempt = connect(token);
      await expect(attempt).rejects.toBeInstanceOf(StreamableHTTPError);
      await expect(attempt).rejects.toMatchObject({ code: 401, message: expect.stringContaining(`"code":"${code}"`) });
    };
    await refused(null, 'TOKEN_MISSING');
    await refused(await service.issuer.token({ aud: 'someone-else' }), 'TOKEN_AUDIENCE_INVALID');
    await refused(`${(await service.issuer.token()).slice(0, -4)}AAAA`, 'TOKEN_SIGNATURE_INVALID');
    const unauthenticated = await fetch(`${service.host.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'decide', arguments: addDependent(BY_STATUS.GREEN) } }),
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('answers a bad argument or an unknown module with an error result carrying the code and the JSON path', async () => {
    const client = await connect();
    expect(refusalOf(await decide(client, { ...addDependent({}), context: 'a dependent' }))).toBe('INVALID_REQUEST: the decide request is invalid: $.context expected an object, found a string\n$.context: expected an object, found a string');
    expect(refusalOf(await decide(client, { ...addDependent(BY_STATUS.GREEN), world_model_version: '9.9.9' }))).toMatch(/^MODULE_NOT_FOUND: .*hr\.benefits@9\.9\.9/);
    expect(refusalOf(await decide(client, { ...addDependent(BY_STATUS.GREEN), action: 'adopt_pet' }))).toMatch(/^UNKNOWN_ACTION: .*adopt_pet/);
    expect(refusalOf(await decide(client, { ...addDependent(BY_STATUS.GREEN), extra: true }))).toMatch(/\n\$\.extra: is not a field of a decide request/);
    await expect(client.callTool({ name: 'approve', arguments: {} })).rejects.toThrow(/unknown tool `approve`/);
  });

  it("keeps tenants apart: another org's token cannot reach acme's module", async () => {
    const globex = await connect(await service.issuer.token({ org_id: 'globex' }));
    expect(refusalOf(await decide(globex, addDependent(BY_STATUS.GREEN)))).toMatch(/^MODULE_NOT_FOUND: .*globex/);
    expect(refusalOf(await decide(globex, addDependent(BY_STATUS.GREEN, { org_id: 'acme' })))).toMatch(/^WRONG_TENANT: the token is for org globex, not acme/);
  });

  it('a context as deep as POST /v1/decide accepts is accepted through the deeper JSON-RPC envelope, and no deeper', async () => {
    const client = await connect();
    const nested = (levels: number) => {
      let value: unknown = 'leaf';
      for (let level = 0; level < levels; level++) value = { nested: value };
      return { ...BY_STATUS.GREEN, documents: [value] };
    };
    // A context may be 32 levels deep (DEFAULT_REQUEST_LIMITS.maxDepth); the body holds it one
    // level down, and the context and its `documents` array are two of its 32 levels.
    const deepest = addDependent(nested(32 + 1 - 3));
    const overHttp = await service.post('/v1/decide', deepest);
    expect(overHttp.status).toBe(200);
    expect(decisionOf(await decide(client, deepest))['status']).toBe((await jsonObject(overHttp))['status']);
    const deeper = addDependent(nested(32 + 2 - 3));
    expect((await service.post('/v1/decide', deeper)).status).toBe(413);
    await expect(decide(client, deeper)).rejects.toMatchObject({ code: 413 });
  });

  it('GET and DELETE /v1/mcp are 405 (stateless: no stream, no session), after the same authentication', async () => {
    const token = await service.issuer.token();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${service.host.url}/v1/mcp`, { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(at(await jsonObject(response), 'error', 'code')).toBe('METHOD_NOT_ALLOWED');
      expect((await fetch(`${service.host.url}/v1/mcp`, { method })).status).toBe(401);
    }
  });

  it("shares the org's rate limit with POST /v1/decide, and says when to retry", async () => {
    // A slow refill: the first decision loads the module, which must not earn a token back.
    const limited = await startService({ rateLimit: { perSecond: 0.01, burst: 2 } });
    try {
      const client = await connect(undefined, limited);
      expect((await limited.post('/v1/decide', addDependent(BY_STATUS.GREEN))).status).toBe(200);
      decisionOf(await decide(client, addDependent(BY_STATUS.GREEN)));
      expect(refusalOf(await decide(client, addDependent(BY_STATUS.GREEN)))).toMatch(/^RATE_LIMITED: org acme is over its rate limit of 0.01 decisions per second\nretry after \d+ s$/);
    } finally {
      await limited.close();
    }
  });
});

describe("adec mcp's caller: the token, verified again before each call", () => {
  it('a token that expires while the agent runs turns each later call into a TOKEN_EXPIRED error result', async () => {
    const verifier = new TokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: [service.issuer.jwk] });
    const server = decideToolServer({ decide: (who, body) => service.host.service.decide(who, body), select: (who, body) => service.host.selections.select(who, body) }, tokenCaller(verifier, await service.issuer.token({}, { expiresIn: '5m' })));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'adec-test-agent', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);
    expect(decisionOf(await decide(client, addDependent(BY_STATUS.GREEN)))['status']).toBe('GREEN');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 10 * 60_000);
      for (let call = 0; call < 2; call++) expect(refusalOf(await decide(client, addDependent(BY_STATUS.GREEN)))).toMatch(/^TOKEN_EXPIRED: the token expired at /);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('over stdio (adec mcp)', () => {
  let dir: string;
  let deployment: Deployment;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adec-mcp-'));
    deployment = await prepareDeployment(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const command = (audit: string, token: string) => ['--no-node-snapshot', repoPath('packages/cli/bin/adec.js'), 'mcp', ...deployment.args, '--audit', audit, '--token', token];

  it('decides with the token holder as caller, and the decision is in the audit store once the agent has gone', async () => {
    const audit = join(dir, 'stdio-audit.db');
    const transport = new StdioClientTransport({ command: process.execPath, args: command(audit, await deployment.issuer.token()), stderr: 'pipe' });
    let logs = '';
    transport.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const client = new Client({ name: 'adec-test-agent', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['decide', 'select']);
    const body = addDependent(BY_STATUS.YELLOW, { request_id: 'stdio-1' });
    const decision = decisionOf(await decide(client, body));
    expect(decision['status']).toBe('YELLOW');
    expect(decisionOf(await decide(client, body))).toEqual(decision);
    expect(refusalOf(await decide(client, { ...body, context: [] }))).toMatch(/^INVALID_REQUEST: /);
    // Ending its input stops adec mcp; the SDK's client would send SIGTERM after 2 s.
    const closing = performance.now();
    await client.close();
    expect(performance.now() - closing).toBeLessThan(2_000);
    expect(logs).toMatch(/"msg":"adec mcp is ready"/);

    const opened = await openAuditStore(audit);
    if (!opened.ok) throw new Error(opened.message);
    try {
      const found = await opened.store.get('acme', 'stdio-1');
      expect(found.ok && found.value?.payload).toMatchObject({ response: decision, caller: { subject: 'agent-7' } });
      expect(await verifyChains(opened.store)).toMatchObject({ ok: true, valid: true });
    } finally {
      await opened.store.close();
    }
  });

  it('refuses to start, exit 1 with the reason, when the token does not verify, and opens nothing', async () => {
    const audit = join(dir, 'refused-audit.db');
    const expired = await deployment.issuer.token({}, { expiresIn: Math.floor(Date.now() / 1000) - 120 });
    for (const [token, reason] of [
      [expired, /^adec mcp: the token does not verify: TOKEN_EXPIRED: the token expired at /],
      ['not-a-jwt', /^adec mcp: the token does not verify: TOKEN_MALFORMED: /],
    ] as const) {
      const child = spawn(process.execPath, command(audit, token), { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(reason);
      expect(stdout).toBe('');
    }
    expect(existsSync(audit)).toBe(false);
  });
});
