/**
 * One schema per route (issue 28): the OpenAPI document the service serves lists exactly its
 * operations, each with the request schema its validator applies; and the validator and that
 * schema agree on which bodies are refused, and on which field is at fault.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/operations/registry.js';
import { jsonSchemaOf, readBody } from '../src/pipeline/request-schema.js';
import { startService, type ServiceFixture } from './service-fixture.js';

/** A body each operation accepts, that each probe below changes one field of. */
const ACCEPTED: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  '/v1/decide': { domain: 'hr.benefits', action: 'add_dependent', world_model_version: '1.0.0', context: {} },
  '/v1/select': { domain: 'learning', world_model_version: '1.0.0', scenario: 'next_step', actions: [] },
  '/v1/feedback': { outcome_id: 'outcome-1', decision_id: 'decision-1', status: 'success' },
};

/** Values each field is tried with: absent, null, each JSON type, and strings at the edges of the field kinds. */
const PROBES: readonly unknown[] = [undefined, null, 7, true, [], [1], {}, { a: 1 }, '', 'ok', 'has space', 'success', 'a\u0001b', 'x'.repeat(201), '-leading', [{ signal: 's', value: 1 }], [{ signal: '' }], [{ signal: 's' }], '2026-03-01T09:00:00Z', '2026-02-30T09:00:00Z', '1.0.0', { code: 'E', message: '', category: 'c' }];

/** RFC 3339 with a calendar date that exists (the execution outcome package's timestamps), checked here on its own. */
function isDateTime(text: string): boolean {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)) return false;
  const day = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text.slice(0, 10));
}

describe('the validator refuses a body exactly when its schema does, naming the same field', () => {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, formats: { 'date-time': isDateTime } });

  it.each(OPERATIONS.map((operation) => [operation.path, operation] as const))('%s', (path, operation) => {
    const schema = jsonSchemaOf(operation.schema);
    const validate = ajv.compile(schema);
    expect(readBody(operation.schema, ACCEPTED[path]).ok).toBe(true);
    expect(validate(ACCEPTED[path])).toBe(true);
    let refusals = 0;
    for (const field of operation.schema.fields.filter((field) => field.checkedBy === undefined)) {
      for (const probe of PROBES) {
        // A probe of undefined leaves the field out (the accepted bodies hold no undefined member).
        const body = Object.fromEntries(Object.entries({ ...ACCEPTED[path], [field.name]: probe }).filter(([, value]) => value !== undefined));
        const read = readBody(operation.schema, body);
        const valid = validate(body);
        expect({ field: field.name, probe, refusedByValidator: !read.ok }).toEqual({ field: field.name, probe, refusedByValidator: !valid });
        if (read.ok) continue;
        refusals += 1;
        expect(read.error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
        const schemaFields = new Set((validate.errors ?? []).map((error) => `$.${error.instancePath.split('/')[1] ?? error.params['missingProperty']}`));
        expect(read.error.details.every((detail) => detail.path.startsWith(`$.${field.name}`))).toBe(true);
        expect(schemaFields).toEqual(new Set([`$.${field.name}`]));
      }
    }
    expect(refusals).toBeGreaterThan(operation.schema.fields.length);
    const unknown = readBody(operation.schema, { ...ACCEPTED[path], extra: 1 });
    expect(validate({ ...ACCEPTED[path], extra: 1 })).toBe(false);
    expect(unknown.ok ? [] : unknown.error.details).toEqual([{ path: '$.extra', message: expect.stringMatching(/^is not a field of an? [a-z ]+ \(/) }]);
  });

  it("leaves only the select request's scenario-dependent fields to the engine", () => {
    // The engine refuses each with its JSON path too: packages/server/test/select-http.test.ts.
    expect(OPERATIONS.flatMap((operation) => operation.schema.fields.filter((field) => field.checkedBy === 'engine').map((field) => `${operation.path} ${field.name}`))).toEqual([
      '/v1/select signals',
      '/v1/select actions',
      '/v1/select conditions',
      '/v1/select execution_mode_override',
    ]);
  });
});

describe('the served OpenAPI document', () => {
  let service: ServiceFixture;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => service.close());

  it('lists exactly the registered operations, each with its request schema', async () => {
    const document = (await (await service.get('/openapi.json', null)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>;
      components: { schemas: Record<string, unknown> };
    };
    const withSchemaBodies = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, entry]) => {
        const ref = entry.requestBody?.content['application/json']?.schema.$ref;
        return ref === undefined ? [] : [{ path, method, ref }];
      }),
    );
    expect(withSchemaBodies).toEqual(OPERATIONS.map((operation) => ({ path: operation.path, method: 'post', ref: `#/components/schemas/${operation.schemaName}` })));
    for (const operation of OPERATIONS) expect(document.components.schemas[operation.schemaName]).toEqual(JSON.parse(JSON.stringify(jsonSchemaOf(operation.schema))));
  });

  it('routes each operation, whose service refuses a field its schema does not have, naming it', async () => {
    for (const operation of OPERATIONS) {
      const refused = await service.post(operation.path, { ...ACCEPTED[operation.path], extra: true });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', details: [{ path: '$.extra' }] } });
    }
  });
});
