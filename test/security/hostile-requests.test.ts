/**
 * A request can neither kill nor bend the host (issue 12, finding 3). Each hostile request of
 * the table gets its documented answer (SECURITY.md "Limits"), in both isolations; the process
 * stays up; and a legitimate RED stays RED — before and after the hostile ones, and when a
 * request is padded with megabytes of attributes the action declares but never reads (which used
 * to make every predicate time out and turn the RED into a YELLOW). Requests given as text go
 * through the strict reader first (finding 9; test/security/request-text.test.ts tries it broadly).
 *
 * A request over a limit is refused, never decided (issue 26, finding 9: a 5 MB request whose
 * content calls for a t1 RED was a YELLOW with basis REQUEST_LIMIT): generated requests over
 * each limit, that would otherwise decide RED or GREEN, are each a REQUEST_TOO_LARGE error value
 * naming the limit and the JSON path of the value that crossed it.
 */
import { buildWorld } from '@adec/compiler';
import { decide, DEFAULT_REQUEST_LIMITS, loadModule, parseRequestJson, type DecideResult, type Decision, type Isolation, type LoadedModule, type RequestJsonProblemCode, type RequestLimitName, type RequestLimits } from '@adec/runtime';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { asTestBundle, buildFixture, type TestBundle } from '../support/runtime.js';

const ACTION = 'add_dependent';
/** A 30-year-old child who is not a student: `ineligible_over_age`, t1 RED. */
const RED_REQUEST = { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] };

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function manyKeys(count: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) object[`k${i}`] = i;
  return object;
}

const HUGE = 'x'.repeat(100 * 1024 * 1024);

interface Row {
  readonly name: string;
  readonly context: () => unknown;
  /** A refusal: REQUEST_TOO_LARGE, naming the limit and the path; no decision. */
  readonly limit?: { readonly name: keyof RequestLimits; readonly path: string };
  /** Otherwise the status and basis. */
  readonly status?: string;
  readonly basis?: string;
  readonly message?: RegExp;
}

const ROWS: readonly Row[] = [
  { name: 'a 100 MB string in an attribute', context: () => ({ ...RED_REQUEST, documents: [HUGE] }), limit: { name: 'maxStringCodePoints', path: 'documents[0]' } },
  { name: 'a 100 MB string under an undeclared key', context: () => ({ ...RED_REQUEST, padding: HUGE }), limit: { name: 'maxStringCodePoints', path: 'padding' } },
  { name: 'a string just over the code point limit (astral characters)', context: () => ({ ...RED_REQUEST, documents: ['\u{1F600}'.repeat(DEFAULT_REQUEST_LIMITS.maxStringCodePoints + 1)] }), limit: { name: 'maxStringCodePoints', path: 'documents[0]' } },
  { name: 'nesting 100,000 deep', context: () => ({ ...RED_REQUEST, documents: nested(100_000) }), limit: { name: 'maxDepth', path: 'documents[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]' } },
  { name: 'an object of 1,000,000 keys', context: () => ({ ...RED_REQUEST, ...manyKeys(1_000_000) }), limit: { name: 'maxKeysPerObject', path: '' } },
  { name: 'a list of 1,000,000 items', context: () => ({ ...RED_REQUEST, documents: new Array(1_000_000).fill('birth_certificate') }), limit: { name: 'maxArrayLength', path: 'documents' } },
  { name: 'many values adding up past the size limit', context: () => ({ ...RED_REQUEST, documents: new Array(9_000).fill('y'.repeat(200)) }), limit: { name: 'maxRequestBytes', path: '' } },
  { name: 'a t1 RED padded to 5 MB with documents', context: () => ({ ...RED_REQUEST, documents: new Array(5_000).fill('d'.repeat(1_000)) }), limit: { name: 'maxRequestBytes', path: '' } },
  { name: 'NaN', context: () => ({ ...RED_REQUEST, dependent_age: Number.NaN }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number, found the number NaN/ },
  { name: 'Infinity', context: () => ({ ...RED_REQUEST, dependent_age: Number.POSITIVE_INFINITY }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number, found the number Infinity/ },
  { name: 'an integer past 2^53', context: () => ({ ...RED_REQUEST, dependent_age: 2 ** 53 + 2 }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number/ },
  { name: '-0 is 0', context: () => ({ relationship: 'child', dependent_age: -0, documents: ['birth_certificate'] }), status: 'GREEN', basis: 'RULE_MATCH' },
  { name: 'an own `__proto__` key (as JSON.parse makes it)', context: () => JSON.parse('{"relationship":"child","dependent_age":30,"__proto__":{"dependent_age":1}}') as unknown, status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /`__proto__` is not an attribute/ },
  { name: 'an own `__proto__` key (made with Object.defineProperty)', context: () => Object.defineProperty({ ...RED_REQUEST }, '__proto__', { value: { dependent_age: 1 }, enumerable: true, configurable: true, writable: true }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /`__proto__` is not an attribute/ },
  { name: '`constructor` and `toString` keys', context: () => ({ ...RED_REQUEST, constructor: 'x', toString: 'y' }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /`constructor` is not an attribute/ },
  { name: 'a lone surrogate in a string is data', context: () => ({ ...RED_REQUEST, documents: ['\ud800', 'birth_certificate'] }), status: 'RED', basis: 'RULE_MATCH' },
  { name: 'a context that is not an object', context: () => [RED_REQUEST], status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /the context must be an object, found a list/ },
];

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const RED_TEXT = JSON.stringify(RED_REQUEST);

interface TextRow {
  readonly name: string;
  readonly text: () => Uint8Array;
  /** Refused by the strict reader, with this code; otherwise read and decided. */
  readonly refused?: RequestJsonProblemCode;
  readonly status?: string;
  readonly basis?: string;
}

/** Requests as a host receives them, as text, through the strict reader (`parseRequestJson`). */
const TEXT_ROWS: readonly TextRow[] = [
  { name: 'invalid UTF-8 in a value', text: () => Uint8Array.from([...utf8(RED_TEXT.slice(0, -3)), 0xff, ...utf8(RED_TEXT.slice(-3))]), refused: 'NOT_UTF8' },
  { name: 'a key twice, the last of which would turn the RED into a GREEN', text: () => utf8(RED_TEXT.replace(/}$/, ',"dependent_age":8}')), refused: 'DUPLICATE_KEY' },
  { name: 'NaN, which JSON does not have', text: () => utf8(RED_TEXT.replace('30', 'NaN')), refused: 'NOT_JSON' },
  { name: 'a text over maxRequestBytes', text: () => utf8(RED_TEXT + ' '.repeat(DEFAULT_REQUEST_LIMITS.maxRequestBytes)), refused: 'REQUEST_LIMIT' },
  { name: 'a text nested 100,000 deep', text: () => utf8(RED_TEXT.replace('["birth_certificate"]', '['.repeat(100_000) + ']'.repeat(100_000))), refused: 'REQUEST_LIMIT' },
  { name: 'an integer past 2^53 (read as 2^53, no longer exact)', text: () => utf8(RED_TEXT.replace('30', '9007199254740993')), status: 'YELLOW', basis: 'CONTEXT_INVALID' },
  { name: 'a number too large for a double (read as Infinity)', text: () => utf8(RED_TEXT.replace('30', '1e400')), status: 'YELLOW', basis: 'CONTEXT_INVALID' },
  { name: 'a `__proto__` key (an own property once read)', text: () => utf8(RED_TEXT.replace(/}$/, ',"__proto__":{"dependent_age":1}}')), status: 'YELLOW', basis: 'CONTEXT_INVALID' },
  { name: 'an escaped lone surrogate is data', text: () => utf8(RED_TEXT.replace('["birth_certificate"]', '["\\udc00","birth_certificate"]')), status: 'RED', basis: 'RULE_MATCH' },
  { name: 'a legitimate RED with a byte order mark', text: () => Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(RED_TEXT)]), status: 'RED', basis: 'RULE_MATCH' },
];

const modules: LoadedModule[] = [];
afterAll(async () => {
  for (const module of modules) await module.evaluator.dispose();
});

async function load(bundle: TestBundle, isolation: Isolation, requestLimits?: Partial<RequestLimits>): Promise<LoadedModule> {
  const loaded = await loadModule({ manifest: bundle.manifest, moduleHash: String(bundle.manifest['module_hash']), bundleSource: bundle.bundle }, { isolation, ...(requestLimits && { requestLimits }) });
  if (!loaded.ok) throw new Error(loaded.message);
  modules.push(loaded.module);
  return loaded.module;
}

/** A refusal of a request over `limit`, naming it and the value's `path`: an error value, never a decision. */
function expectRefused(result: DecideResult, limit: RequestLimitName, path: string): void {
  expect(result.ok ? result.decision.status : undefined).toBeUndefined();
  if (result.ok) return;
  expect(result.error.code).toBe('REQUEST_TOO_LARGE');
  if (result.error.code !== 'REQUEST_TOO_LARGE') return;
  expect(result.error.limit).toMatchObject({ limit, path });
  expect(result.error.limit.message).toContain(`(${limit})`);
  expect(result.error.message).toContain(`(${limit})`);
  if (path !== '') expect(result.error.message).toContain(`\`${path}\``);
}

async function decided(module: LoadedModule, action: string, context: unknown): Promise<Decision> {
  const result = await decide(module, { action, context });
  if (!result.ok) throw new Error(result.error.message);
  return result.decision;
}

describe.each(['in-process', 'process'] as const)('hostile requests (%s isolation)', (isolation) => {
  let module: LoadedModule;
  beforeAll(async () => {
    module = await load(asTestBundle(await buildFixture('examples/benefits')), isolation);
  });

  test('a legitimate RED is RED', async () => {
    expect((await decided(module, ACTION, RED_REQUEST)).status).toBe('RED');
  });

  test.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    if (row.limit !== undefined) {
      expectRefused(await decide(module, { action: ACTION, context: row.context() }), row.limit.name, row.limit.path);
    } else {
      const decision = await decided(module, ACTION, row.context());
      const { aggregation_outcome: outcome, context_errors: errors } = decision.decision_metadata;
      expect(decision.status).toBe(row.status);
      expect(outcome.basis).toBe(row.basis);
      if (row.message !== undefined) expect(errors.map((e) => e.message).join('\n')).toMatch(row.message);
    }
    // The host is up and still decides exactly.
    expect((await decided(module, ACTION, RED_REQUEST)).status).toBe('RED');
  });

  test.each(TEXT_ROWS.map((row) => [row.name, row] as const))('text: %s', async (_name, row) => {
    const read = parseRequestJson(row.text());
    if (row.refused !== undefined) {
      expect(read.ok ? undefined : read.problem.code).toBe(row.refused);
      expect(read.ok ? '' : read.problem.message).toMatch(/ at byte \d+ \(line \d+, column \d+\)$/);
    } else {
      if (!read.ok) throw new Error(read.problem.message);
      const decision = await decided(module, ACTION, read.value);
      expect(decision.status).toBe(row.status);
      expect(decision.decision_metadata.aggregation_outcome.basis).toBe(row.basis);
    }
    expect((await decided(module, ACTION, RED_REQUEST)).status).toBe('RED');
  });
});

describe('padding a request with attributes nothing reads', () => {
  // A world whose predicates have 2 ms each, and two attributes no rule reads; the limits are
  // raised so that 6 MB of padding is an allowed request.
  const WORLD = `world { org "adec-test" domain "padding" version "1.0.0" timeout 2ms }
context {
  supplied amount: int
  supplied notes:  list<string> = []
  supplied memo:   string = ""
}
action pay {
  rule over_limit {
    outcome  RED
    severity t1
    when     amount > 1000
    reason   "{amount} is over the limit"
  }
  rule within_limit {
    outcome  GREEN
    severity t2
    when     amount <= 1000
  }
}
`;
  const RAISED: Partial<RequestLimits> = { maxRequestBytes: 16 * 1024 * 1024, maxArrayLength: 100_000 };
  const padding = { notes: new Array(30_000).fill('z'.repeat(200)), memo: 'm'.repeat(60_000) };

  test.each(['in-process', 'process'] as const)('leaves a RED RED (%s isolation)', async (isolation) => {
    const built = await buildWorld({ root: 'padding', files: [{ path: 'padding/world.adec', text: WORLD }] });
    const module = await load(asTestBundle(built.artifacts!), isolation, RAISED);
    for (let i = 0; i < 5; i++) {
      const decision = await decided(module, 'pay', { amount: 5000, ...padding });
      expect(decision.status).toBe('RED');
      expect(decision.decision_metadata.errored_predicates).toEqual([]);
      expect(decision.decision_metadata.aggregation_outcome.winning_rule).toBe('over_limit');
    }
  });
});

describe.each(['in-process', 'process'] as const)('a request over a limit is refused, never decided (%s isolation)', (isolation) => {
  const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_127 : Number(process.env['ADEC_PROPERTY_SEED']);
  const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 40 : Number(process.env['ADEC_PROPERTY_RUNS']);
  // Small limits, so that generated requests cross each one cheaply; the check is the same at any size.
  const LIMITS: RequestLimits = { maxRequestBytes: 4_096, maxDepth: 4, maxKeysPerObject: 8, maxArrayLength: 8, maxStringCodePoints: 64 };
  /** The benefits world's add_dependent: a t1 RED, and a GREEN. */
  const BASES = { RED: RED_REQUEST, GREEN: { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] } } as const;

  /** A request over `limit`, where the value that crosses it is, and the same request just within the limit with how that one is decided. */
  interface OverLimit {
    readonly context: Record<string, unknown>;
    readonly path: string;
    readonly within?: { readonly context: Record<string, unknown>; readonly status: string; readonly basis?: string };
  }

  const characters = fc.constantFrom('a', 'é', '\u{1F600}', '\u0000', '"', '\ud800', ' ');
  const name = fc.stringMatching(/^[a-z]{1,6}$/);

  function overLimit(limit: RequestLimitName, base: Record<string, unknown>, status: string): fc.Arbitrary<OverLimit> {
    const documents = base['documents'] as string[];
    switch (limit) {
      case 'maxStringCodePoints':
        // A document of too many code points, anywhere in the list.
        return fc.tuple(fc.array(characters, { minLength: LIMITS.maxStringCodePoints + 1, maxLength: 3 * LIMITS.maxStringCodePoints }), fc.nat(documents.length)).map(([chars, at]) => {
          const withText = (text: string) => ({ ...base, documents: documents.toSpliced(at, 0, text) });
          return { context: withText(chars.join('')), path: `documents[${at}]`, within: { context: withText(chars.slice(0, LIMITS.maxStringCodePoints).join('')), status } };
        });
      case 'maxArrayLength':
        return fc.array(fc.constantFrom('payslip', 'passport', 'birth_certificate'), { minLength: LIMITS.maxArrayLength + 1 - documents.length, maxLength: 3 * LIMITS.maxArrayLength }).map((more) => ({
          context: { ...base, documents: [...documents, ...more] },
          path: 'documents',
          within: { context: { ...base, documents: [...documents, ...more].slice(0, LIMITS.maxArrayLength) }, status },
        }));
      case 'maxKeysPerObject':
        // Too many keys in the context itself, or in an object under an attribute no action declares.
        return fc.oneof(
          fc.uniqueArray(name.map((key) => `pad_${key}`), { minLength: LIMITS.maxKeysPerObject + 1 - Object.keys(base).length, maxLength: 2 * LIMITS.maxKeysPerObject }).map((keys) => ({
            context: { ...base, ...Object.fromEntries(keys.map((key) => [key, 1])) },
            path: '',
            within: { context: { ...base, ...Object.fromEntries(keys.slice(0, LIMITS.maxKeysPerObject - Object.keys(base).length).map((key) => [key, 1])) }, status: 'YELLOW', basis: 'CONTEXT_INVALID' },
          })),
          fc.uniqueArray(name, { minLength: LIMITS.maxKeysPerObject + 1, maxLength: 2 * LIMITS.maxKeysPerObject }).map((keys) => ({
            context: { ...base, padding: Object.fromEntries(keys.map((key) => [key, 'v'])) },
            path: 'padding',
            within: { context: { ...base, padding: Object.fromEntries(keys.slice(0, LIMITS.maxKeysPerObject).map((key) => [key, 'v'])) }, status: 'YELLOW', basis: 'CONTEXT_INVALID' },
          })),
        );
      case 'maxDepth':
        // Lists and objects nested under an undeclared attribute, past the depth limit.
        return fc.array(fc.oneof(fc.constant(null), name), { minLength: LIMITS.maxDepth, maxLength: 3 * LIMITS.maxDepth }).map((levels) => {
          const nest = (count: number): unknown => levels.slice(0, count).reduceRight<unknown>((inner, key) => (key === null ? [inner] : { [key]: inner }), 'bottom');
          // The context is depth 0 and `padding` depth 1: the container at depth maxDepth crosses it.
          const path = levels.slice(0, LIMITS.maxDepth - 1).reduce<string>((at, key) => (key === null ? `${at}[0]` : `${at}.${key}`), 'padding');
          return { context: { ...base, padding: nest(levels.length) }, path, within: { context: { ...base, padding: nest(LIMITS.maxDepth - 1) }, status: 'YELLOW', basis: 'CONTEXT_INVALID' } };
        });
      case 'maxRequestBytes':
        // Values each within every other limit, adding up past the size limit.
        return fc.tuple(fc.integer({ min: 2, max: LIMITS.maxKeysPerObject - Object.keys(base).length }), fc.integer({ min: 40, max: LIMITS.maxStringCodePoints })).map(([keys, length]) => ({
          context: { ...base, ...Object.fromEntries(Array.from({ length: keys }, (_, k) => [`pad_${k}`, new Array(8).fill(new Array(8).fill('b'.repeat(length)))])) },
          path: '',
        }));
    }
  }

  let module: LoadedModule;
  beforeAll(async () => {
    module = await load(asTestBundle(await buildFixture('examples/benefits')), isolation, LIMITS);
  });

  test.each(Object.keys(LIMITS) as RequestLimitName[])('%s', async (limit) => {
    const cases = fc.constantFrom('RED', 'GREEN').chain((status) => overLimit(limit, BASES[status], status).map((over) => ({ status, over })));
    await fc.assert(
      fc.asyncProperty(cases, async ({ status, over }) => {
        expect((await decided(module, ACTION, BASES[status])).status).toBe(status);
        expectRefused(await decide(module, { action: ACTION, context: over.context }), limit, over.path);
        if (over.within !== undefined) {
          const decision = await decided(module, ACTION, over.within.context);
          expect(decision.status).toBe(over.within.status);
          if (over.within.basis !== undefined) expect(decision.decision_metadata.aggregation_outcome.basis).toBe(over.within.basis);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
