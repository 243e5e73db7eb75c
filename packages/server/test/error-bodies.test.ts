/**
 * Every error the service answers is in its one error shape and shows nothing of the host
 * (issue 26 finding 8): generated over every route of the OpenAPI document × every method ×
 * bad tokens, bad bodies and bad URLs, plus what only a raw socket can send (malformed request
 * lines, huge headers, no Host, an unknown Expect), unknown and broken modules, and an audit
 * store that fails or throws with a driver's words and a host path; over HTTP and over MCP.
 * Each body is scanned for absolute paths, driver text, stack frames and internal names.
 */
import { cpSync, mkdtempSync, appendFileSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditStore, type AuditStore } from '@adec/audit';
import { OPENAPI_DOCUMENT } from '@adec/server';
import { at } from './json-body.js';
import { addDependent, BY_STATUS, startService, tokenIssuer, type ServiceFixture } from './service-fixture.js';
import { exchangeRaw } from './raw-http.js';

/** What the failing store says: the words of a driver, about a file of the host. */
const DRIVER_TEXT = 'SQLITE_IOERR: disk I/O error (sqlite3 step) at /var/lib/adec/audit.db; pg: connect ECONNREFUSED 10.0.0.5:5432';

type StoreMode = 'works' | 'fails' | 'throws';

/** A real SQLite store that can be told to fail every call, as a result or by throwing. */
function switchableStore(real: AuditStore, mode: () => StoreMode): AuditStore {
  const failing = (target: object): object =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (property === 'memory') return failing(value as object);
        if (typeof value !== 'function') return value;
        if (property === 'close' || property === 'stats') return (value as () => unknown).bind(object);
        return (...args: unknown[]) => {
          if (mode() === 'fails') return Promise.resolve({ ok: false, code: 'STORE_UNAVAILABLE', message: DRIVER_TEXT });
          if (mode() === 'throws') return Promise.reject(new Error(DRIVER_TEXT));
          return (value as (...args: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  return failing(real) as AuditStore;
}

/** Each thing a body must not show, and how to see it. */
function leaksIn(body: string, hostStrings: readonly string[]): string[] {
  const found: string[] = [];
  for (const text of hostStrings) if (body.includes(text)) found.push(`the host's ${text}`);
  const patterns: [string, RegExp][] = [
    // Two or more segments from the root, not one of the service's own routes.
    ['an absolute path', /(?:^|[^\w.~/#-])\/(?!v1\/|health\/)[\w.@~-]+(?:\/[\w.@~-]+)+/],
    ['a Windows path', /\b[A-Za-z]:\\/],
    ['a stack frame', /\bat .*(?:\.[cm]?[jt]s\b|node:|<anonymous>)/],
    ['SQLite', /sqlite/i],
    ['pg', /\bpg\b/],
    ['ECONN', /ECONN/],
    ['an errno name', /\bE(?:NOENT|ACCES|PERM|IO|MFILE|ADDRINUSE)\b/],
    ['an internal name', /FST_ERR|HPE_|\bERR_[A-Z]|node:internal|better-sqlite|isolated-vm|fastify|llhttp|undici/i],
  ];
  for (const [what, pattern] of patterns) if (pattern.test(body)) found.push(`${what} (${body.match(pattern)![0]})`);
  return found;
}

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

let service: ServiceFixture;
let storeMode: StoreMode = 'works';
let storeDir: string;
let hostStrings: string[];
let token: string;
/** Every answer, with what produced it, checked together at the end of each test. */
const answers: { readonly name: string; readonly answer: Answer }[] = [];

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), 'adec-error-bodies-'));
  const opened = await openAuditStore(join(storeDir, 'audit.db'));
  if (!opened.ok) throw new Error(opened.message);
  service = await startService({ audit: switchableStore(opened.store, () => storeMode) }, (modules) => {
    // A module whose code no longer matches its signature: refused when it is loaded.
    const broken = join(modules, 'acme', 'hr.benefits', '6.6.6');
    cpSync(join(modules, 'acme', 'hr.benefits', '1.4.0'), broken, { recursive: true });
    const code = readdirSync(broken).find((file) => file.endsWith('.js') || file.endsWith('.mjs'));
    appendFileSync(join(broken, code ?? 'manifest.json'), '\n// changed after signing\n');
  });
  token = await service.issuer.token();
  hostStrings = [service.dir, service.modules, storeDir, process.cwd(), tmpdir(), homedir()].filter((text) => text.length > 1);
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
  rmSync(storeDir, { recursive: true, force: true });
});

async function send(name: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${service.host.url}${path}`, init);
  const answer = { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  answers.push({ name, answer });
  return answer;
}

async function sendRaw(name: string, request: string | Buffer): Promise<Answer | undefined> {
  const raw = await exchangeRaw(service.host.url!, request);
  if (raw === undefined) return undefined;
  const answer = { status: raw.status, contentType: raw.headers['content-type'] ?? null, body: raw.body };
  answers.push({ name, answer });
  return answer;
}

/** Every answer so far: an error in the error shape, and nothing of the host in any body. */
function expectAllClean() {
  const problems: string[] = [];
  for (const { name, answer } of answers.splice(0)) {
    const leaks = leaksIn(answer.body, hostStrings);
    if (leaks.length > 0) problems.push(`${name}: ${answer.status} shows ${leaks.join(', ')}: ${answer.body.slice(0, 300)}`);
    // A HEAD answer has no body, by definition (RFC 9110 §9.3.2).
    if (answer.status < 400 || name.startsWith('HEAD ')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      problems.push(`${name}: ${answer.status} is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`);
      continue;
    }
    const error = (parsed as { error?: Record<string, unknown> }).error;
    const shaped =
      answer.contentType?.startsWith('application/json') === true &&
      Object.keys(parsed as object).join() === 'error' &&
      error !== undefined &&
      Object.keys(error).join() === 'code,message,details' &&
      typeof error['code'] === 'string' &&
      /^[A-Z][A-Z0-9_]*$/.test(error['code']) &&
      typeof error['message'] === 'string' &&
      Array.isArray(error['details']);
    if (!shaped) problems.push(`${name}: ${answer.status} is not the error shape (${answer.contentType}): ${answer.body.slice(0, 200)}`);
  }
  expect(problems).toEqual([]);
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
const JSON_TYPE = { 'content-type': 'application/json' };

/** Every route of the OpenAPI document with a concrete path. */
const ROUTES = Object.keys(OPENAPI_DOCUMENT.paths).map((path) => path.replace('{id}', 'some-decision'));
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

describe('every error is in the error shape and shows nothing of the host', () => {
  it('routes × methods × tokens: none, malformed, another scheme, signed by another key, expired, no org', async () => {
    const stranger = await tokenIssuer();
    const tokens: [string, Record<string, string>][] = [
      ['no token', {}],
      ['a malformed token', bearer('not.a.jwt')],
      ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
      ['a token from another key', bearer(await stranger.token())],
      ['an expired token', bearer(await service.issuer.token({}, { expiresIn: -60 }))],
      ['a token without an org', bearer(await service.issuer.token({ org_id: undefined }))],
      ['a valid token', bearer(token)],
    ];
    for (const route of ROUTES) {
      for (const method of METHODS) {
        for (const [name, headers] of tokens) {
          const body = method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(addDependent(BY_STATUS.GREEN));
          await send(`${method} ${route} with ${name}`, route, { method, headers: { ...headers, ...(body !== undefined && JSON_TYPE) }, ...(body !== undefined && { body }) });
        }
      }
    }
    expectAllClean();
  });

  it('routes × body methods × bad bodies: not JSON, empty, another media type, a key twice, not UTF-8, too large, too deep', async () => {
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const bodies: [string, Record<string, string>, string | Uint8Array][] = [
      ['not JSON', JSON_TYPE, '{"domain": '],
      ['an empty body', JSON_TYPE, ''],
      ['text/plain', { 'content-type': 'text/plain' }, 'hello'],
      ['a charset-less odd media type', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&b=2'],
      ['a malformed media type', { 'content-type': 'application/json; charset="' }, '{}'],
      ['a key twice', JSON_TYPE, '{"domain":"a","domain":"b"}'],
      ['bytes that are not UTF-8', JSON_TYPE, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ['a body over the size limit', JSON_TYPE, `{"context":"${'x'.repeat(1024 * 1024 + 10)}"}`],
      ['a body nested too deep', JSON_TYPE, deep],
      ['a JSON array', JSON_TYPE, '[1,2,3]'],
      ['a JSON string', JSON_TYPE, '"decide"'],
      ['a body with the wrong field types', JSON_TYPE, JSON.stringify({ domain: 7, action: [], world_model_version: {}, context: 'x' })],
    ];
    for (const route of ROUTES) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        for (const [name, headers, body] of bodies) await send(`${method} ${route} with ${name}`, route, { method, headers: { ...bearer(token), ...headers }, body });
      }
    }
    expectAllClean();
  });

  it('bad URLs: broken percent-encoding, ids too long or malformed, unknown paths, odd queries', async () => {
    const paths = [
      '/v1/decisions/%ff',
      '/v1/decisions/%E0%A4%A',
      '/v1/decisions/%',
      `/v1/decisions/${'a'.repeat(129)}`,
      `/v1/decisions/${'a'.repeat(5_000)}/replay`,
      '/v1/decisions/..%2f..%2fetc%2fpasswd',
      '/v1/decisions/%00',
      '/v1/decisions/a%20b',
      '/v1/decide%ff',
      '/v1/decide?traces=maybe',
      '/v1/decide?traces=true&traces=false',
      '/v1/decide?%ff=1',
      '/v1/nothing-here',
      '/%ff',
      '/v1/mcp/%ff',
      '//v1//decide',
      '/health/ready/../../etc/passwd',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST']) {
        const init = method === 'POST' ? { method, headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify(addDependent(BY_STATUS.GREEN)) } : { method, headers: bearer(token) };
        await send(`${method} ${path}`, path, init);
      }
    }
    const tooLong = answers.find(({ name }) => name === `GET /v1/decisions/${'a'.repeat(129)}`)!.answer;
    expect(tooLong.status).toBe(414);
    expect(at(JSON.parse(tooLong.body), 'error', 'code')).toBe('URI_TOO_LONG');
    const badEncoding = answers.find(({ name }) => name === 'GET /v1/decisions/%ff')!.answer;
    expect(badEncoding.status).toBe(400);
    expect(at(JSON.parse(badEncoding.body), 'error', 'code')).toBe('MALFORMED_URL');
    expectAllClean();
  });

  it('what only a raw socket sends: a malformed request line, an unknown method, headers too large, no Host, HTTP/2, bad chunking, an unknown Expect, an upgrade', async () => {
    const cases: [string, string][] = [
      ['a malformed request line', 'GARBAGE\r\n\r\n'],
      ['an unknown method', 'FROB /v1/decide HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['headers too large', `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      ['a request line too long', `GET /v1/decisions/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
      ['no Host', 'GET /health/live HTTP/1.1\r\n\r\n'],
      ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
      ['bad chunking', `POST /v1/decide HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
      ['Content-Length and chunked together', 'POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
      ['a header name with a space', 'GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
      ['a control character in a header', 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
      ['an unknown Expect', 'POST /v1/decide HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'],
      ['an upgrade to WebSocket', 'GET /v1/mcp HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'],
      ['an absolute-form target', 'GET http://evil.example/health/live HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['HTTP/1.0 without Host', 'GET /nowhere HTTP/1.0\r\n\r\n'],
      ['an MCP call with a Host that is no host name', mcpOverRaw('not a host', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')],
    ];
    for (const [name, request] of cases) await sendRaw(name, request);
    const status = (name: string) => answers.find((entry) => entry.name === name)?.answer.status;
    expect(status('headers too large')).toBe(431);
    expect(status('no Host')).toBe(400);
    expect(status('an unknown Expect')).toBe(417);
    expect(status('a malformed request line')).toBe(400);
    expect(status('an MCP call with a Host that is no host name')).toBe(200);
    expectAllClean();
  });

  it('unknown, missing and broken modules, over HTTP and MCP', async () => {
    const modules: [string, Record<string, unknown>][] = [
      ['an unknown version', addDependent(BY_STATUS.GREEN, { world_model_version: '9.9.9' })],
      ['an unknown domain', addDependent(BY_STATUS.GREEN, { domain: 'no.such.domain' })],
      ['a traversal in the domain', addDependent(BY_STATUS.GREEN, { domain: '../../etc' })],
      ['an unknown action', addDependent(BY_STATUS.GREEN, { action: 'fly' })],
      ['a module changed after signing', addDependent(BY_STATUS.GREEN, { world_model_version: '6.6.6' })],
    ];
    for (const [name, body] of modules) {
      await send(`decide with ${name}`, '/v1/decide', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify(body) });
      await send(`select with ${name}`, '/v1/select', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify({ domain: body['domain'], world_model_version: body['world_model_version'], scenario: 'any', actions: [{ action_id: 'a', type: 't' }] }) });
      await mcpCall(`MCP decide with ${name}`, 'decide', body);
    }
    const unknown: unknown = JSON.parse(answers.find(({ name }) => name === 'decide with an unknown version')!.answer.body);
    expect(at(unknown, 'error')).toMatchObject({ code: 'MODULE_NOT_FOUND', message: expect.stringMatching(/hr\.benefits@9\.9\.9/) });
    expectAllClean();
  });

  it('an audit store that fails with a driver\'s words, or throws them, on every route and over MCP', async () => {
    const decided = await service.post('/v1/decide', addDependent(BY_STATUS.GREEN));
    const id = ((await decided.json()) as { decision_metadata: { request_id: string } }).decision_metadata.request_id;
    for (const mode of ['fails', 'throws'] as const) {
      storeMode = mode;
      try {
        await send(`decide, store ${mode}`, '/v1/decide', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify(addDependent(BY_STATUS.GREEN)) });
        await send(`decide with a request_id, store ${mode}`, '/v1/decide', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify(addDependent(BY_STATUS.GREEN, { request_id: `r-${mode}` })) });
        await send(`get, store ${mode}`, `/v1/decisions/${id}`, { headers: bearer(token) });
        await send(`replay, store ${mode}`, `/v1/decisions/${id}/replay`, { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: '{}' });
        await send(`feedback, store ${mode}`, '/v1/feedback', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE }, body: JSON.stringify({ decision_id: id, outcome_id: `o-${mode}`, action_name: 'a', status: 'completed' }) });
        await send(`ready, store ${mode}`, '/health/ready');
        await send(`metrics, store ${mode}`, '/metrics');
        await mcpCall(`MCP decide, store ${mode}`, 'decide', addDependent(BY_STATUS.GREEN));
      } finally {
        storeMode = 'works';
      }
    }
    const failed: unknown = JSON.parse(answers.find(({ name }) => name === 'decide, store fails')!.answer.body);
    expect(at(failed, 'error', 'code')).toBe('AUDIT_UNAVAILABLE');
    expect(answers.find(({ name }) => name === 'decide, store throws')!.answer.status).toBe(500);
    expectAllClean();
  });

  it('MCP requests the transport refuses: no Accept, not JSON-RPC, an unknown method or tool', async () => {
    const post = (name: string, body: unknown, accept = 'application/json, text/event-stream') =>
      send(name, '/v1/mcp', { method: 'POST', headers: { ...bearer(token), ...JSON_TYPE, accept }, body: JSON.stringify(body) });
    const notAcceptable = await post('MCP without Accept', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'application/json');
    expect(notAcceptable.status).toBe(406);
    const notJsonRpc = await post('MCP with a body that is not JSON-RPC', { hello: 'world' });
    expect(notJsonRpc.status).toBe(400);
    await post('MCP with an unknown method', { jsonrpc: '2.0', id: 2, method: 'files/read', params: { path: '/etc/passwd' } });
    await mcpCall('MCP with an unknown tool', 'shell', { command: 'ls /' });
    await mcpCall('MCP decide with bad arguments', 'decide', { domain: 5 });
    expectAllClean();
  });
});

function mcpOverRaw(host: string, body: string): string {
  return `POST /v1/mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

async function mcpCall(name: string, tool: string, args: unknown): Promise<Answer> {
  return send(name, '/v1/mcp', {
    method: 'POST',
    headers: { ...bearer(token), ...JSON_TYPE, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
  });
}
