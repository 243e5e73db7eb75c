/**
 * The OpenAPI document's `Decision` (also the MCP tool `decide`'s output schema) describes the
 * decisions the runtime makes: its statuses, tiers and work_frame fields come from @adec/abi,
 * and so does the runtime's work_frame, so a field the runtime adds, drops or reorders shows here
 * as a decision the document does not describe. Real decisions of every status, one whose
 * context did not bind among them.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORK_FRAME_FIELDS } from '@adec/abi';
import { decide, type Decision, type LoadedModule } from '@adec/runtime';
import { OPENAPI_DOCUMENT } from '../src/openapi.js';
import { asTestBundle, buildFixture, loadTestBundle } from '../../../test/support/runtime.js';

const CONTEXTS = {
  GREEN: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] },
  'GREEN-SKIP': { relationship: 'child', dependent_age: 12, already_on_plan: true },
  YELLOW: { relationship: 'stepchild', dependent_age: 8 },
  RED: { relationship: 'child', dependent_age: 27, documents: ['birth_certificate'] },
  'YELLOW, context invalid': { relationship: 'child', dependent_age: 'ten' },
};

let module: LoadedModule;
const decisions = new Map<string, Decision>();

beforeAll(async () => {
  module = await loadTestBundle(asTestBundle(await buildFixture('examples/benefits')));
  for (const [name, context] of Object.entries(CONTEXTS)) {
    const result = await decide(module, { action: 'add_dependent', context });
    if (!result.ok) throw new Error(result.error.message);
    decisions.set(name, result.decision);
  }
});
afterAll(async () => {
  await module.evaluator.dispose();
});

describe('the documented Decision is what the runtime answers', () => {
  const schema = OPENAPI_DOCUMENT.components.schemas.Decision;
  // Closed at the work_frame too: a field the document does not name is a difference.
  const closed = { ...schema, properties: { ...schema.properties, work_frame: { ...schema.properties.work_frame, additionalProperties: false } } };
  const validate = new Ajv({ allowUnionTypes: true, validateFormats: false }).compile(closed);

  it.each(Object.keys(CONTEXTS))('%s', (name) => {
    const decision = JSON.parse(JSON.stringify(decisions.get(name))) as Decision;
    expect(decision.status).toBe(name.split(',')[0]);
    expect(validate(decision), JSON.stringify(validate.errors)).toBe(true);
    // Every field, in the order the document lists them.
    expect(Object.keys(decision.work_frame)).toEqual(schema.properties.work_frame.required);
  });

  it('lists the work_frame fields of @adec/abi, each of its kind', () => {
    expect(schema.properties.work_frame.required).toEqual(Object.keys(WORK_FRAME_FIELDS));
    const missing = decisions.get('YELLOW, context invalid')!.work_frame;
    expect(missing.missing_evidence).toEqual(['dependent_age']);
    expect(decisions.get('GREEN')!.work_frame.next_human_owner).toBeNull();
    expect(decisions.get('RED')!.work_frame.next_human_owner).toBe('benefits-escalations');
  });
});
