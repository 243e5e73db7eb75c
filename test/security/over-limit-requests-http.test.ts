/**
 * Over HTTP, a request over a limit is refused, never decided or recorded (issue 26, finding 9).
 * The limits a body's text is held to (its bytes, its nesting) are refused as it is read; the
 * others (keys, list items, string code points) by `decide()`, which answers REQUEST_TOO_LARGE
 * instead of a decision. Either way POST /v1/decide answers 413 in the documented envelope
 * naming the limit and the JSON path, nothing is stored under the request id, and the MCP tool
 * answers the same code as a tool error. Requests are generated over each limit, each one a
 * RED or a GREEN but for the value that crosses it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_REQUEST_LIMITS, type RequestLimitName } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDependent, BY_STATUS, startService, type ServiceFixture } from '../../packages/server/test/service-fixture.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_127 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 6 : Number(process.env['ADEC_PROPERTY_RUNS']);
const LIMITS = DEFAULT_REQUEST_LIMITS;

let service: ServiceFixture;
let client: Client;
beforeAll(async () => {
  service = await startService();
  client = new Client({ name: 'adec-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/v1/mcp', service.host.url!), { requestInit: { headers: { authorization: `Bearer ${await service.issuer.token()}` } } }));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
await client?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
await service?.close();
});

interface OverLimit {
  readonly context: Record<string, unknown>;
  /** The detail's JSON path; undefined where the body's reader refuses it (it names a line and column). */
  readonly path?: string;
}

/** A context over `limit`, the rest of it `base`. */
function overLimit(limit: RequestLimitName, base: Record<string, unknown>): fc.Arbitrary<OverLimit> {
  const documents = base['documents'] as string[];
  switch (limit) {
    case 'maxStringCodePoints':
      return fc.tuple(fc.integer({ min: 1, max: 2_000 }), fc.constantFrom('x', 'é', '\u{1F600}'), fc.nat(documents.length)).map(([extra, character, at]) => ({
        context: { ...base, documents: documents.toSpliced(at, 0, character.repeat(LIMITS.maxStringCodePoints + extra)) },
        path: `$.context.documents[${at}]`,
      }));
    case 'maxArrayLength':
      return fc.integer({ min: 1, max: 2_000 }).map((extra) => ({ context: { ...base, documents: [...documents, ...new Array<string>(LIMITS.maxArrayLength + extra - documents.length).fill('payslip')] }, path: '$.context.documents' }));
    case 'maxKeysPerObject':
      return fc.integer({ min: 1, max: 200 }).map((extra) => ({
        context: { ...base, ...Object.fromEntries(Array.from({ length: LIMITS.maxKeysPerObject + extra - Object.keys(base).length }, (_, k) => [`pad_${k}`, k])) },
        path: '$.context',
      }));
    case 'maxDepth':
      return fc.integer({ min: 1, max: 20 }).map((extra) => {
        let padding: unknown = 'bottom';
        for (let level = 0; level < LIMITS.maxDepth + extra; level++) padding = [padding];
        return { context: { ...base, padding } };
      });
    case 'maxRequestBytes':
      return fc.integer({ min: 1, max: 4_096 }).map((extra) => ({ context: { ...base, documents: [...documents, ...new Array<string>(20).fill('b'.repeat(Math.ceil((LIMITS.maxRequestBytes + extra) / 20)))] } }));
  }
}

interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly details: { path: string; message: string }[];
}

async function refusal(response: Response): Promise<Refusal> {
  expect(response.status).toBe(413);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: Refusal };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error)).toEqual(['code', 'message', 'details']);
  expect(body.error.code).toBe('REQUEST_TOO_LARGE');
  return body.error;
}

describe('POST /v1/decide and the MCP decide tool', () => {
  let count = 0;
  test.each(Object.keys(LIMITS) as RequestLimitName[])('a request over %s: 413 naming it, nothing recorded', async (limit) => {
    const cases = fc.sample(fc.constantFrom('RED', 'GREEN').chain((status) => overLimit(limit, BY_STATUS[status]).map((over) => ({ status, over }))), { seed: SEED, numRuns: RUNS });
    for (const { status, over } of cases) {
      const requestId = `over-${limit}-${count++}`;
      const error = await refusal(await service.post('/v1/decide', addDependent(over.context, { request_id: requestId })));
      // A body over maxRequestBytes is cut off by the HTTP server before it is read; its refusal names the bytes.
      expect(error.message).toContain(limit === 'maxRequestBytes' ? `${LIMITS.maxRequestBytes} bytes` : `(${limit})`);
      if (over.path !== undefined) {
        expect(error.details).toEqual([{ path: over.path, message: expect.stringContaining(`(${limit})`) }]);
        const tool = (await client.callTool({ name: 'decide', arguments: addDependent(over.context, { request_id: `${requestId}-mcp` }) })) as CallToolResult;
        expect(tool.isError).toBe(true);
        expect((tool.content[0] as { text: string }).text).toMatch(new RegExp(`^REQUEST_TOO_LARGE: .*\\(${limit}\\)\\n\\${over.path.replace(/[[\]]/g, '\\$&')}: `));
        expect((await service.get(`/v1/decisions/${requestId}-mcp`)).status).toBe(404);
      }
      expect((await service.get(`/v1/decisions/${requestId}`)).status).toBe(404);
      // The service still decides what the request's content calls for.
      const decided = (await (await service.post('/v1/decide', addDependent(BY_STATUS[status]))).json()) as { status: string };
      expect(decided.status).toBe(status);
    }
  });
});
