/**
 * A request can neither kill nor bend the host (issue 12, finding 3). Each hostile request of
 * the table gets its documented answer (SECURITY.md "Limits"), in both isolations; the process
 * stays up; and a legitimate RED stays RED — before and after the hostile ones, and when a
 * request is padded with megabytes of attributes the action declares but never reads (which used
 * to make every predicate time out and turn the RED into a YELLOW). Requests given as text go
 * through the strict reader first (finding 9; test/security/request-text.test.ts tries it broadly).
 */
import { buildWorld } from '@adec/compiler';
import { decide, DEFAULT_REQUEST_LIMITS, loadModule, parseRequestJson, type Decision, type Isolation, type LoadedModule, type RequestJsonProblemCode, type RequestLimits } from '@adec/runtime';
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
  /** A limit answer: YELLOW, basis REQUEST_LIMIT, naming the limit and the path. */
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
  { name: 'NaN', context: () => ({ ...RED_REQUEST, dependent_age: Number.NaN }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number, found the number NaN/ },
  { name: 'Infinity', context: () => ({ ...RED_REQUEST, dependent_age: Number.POSITIVE_INFINITY }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number, found the number Infinity/ },
  { name: 'an integer past 2^53', context: () => ({ ...RED_REQUEST, dependent_age: 2 ** 53 + 2 }), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /expected a whole number/ },
  { name: '-0 is 0', context: () => ({ relationship: 'child', dependent_age: -0, documents: ['birth_certificate'] }), status: 'GREEN', basis: 'RULE_MATCH' },
  { name: 'an own `__proto__` key (as JSON.parse makes it)', context: () => JSON.parse('{"relationship":"child","dependent_age":30,"__proto__":{"dependent_age":1}}'), status: 'YELLOW', basis: 'CONTEXT_INVALID', message: /`__proto__` is not an attribute/ },
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
    const decision = await decided(module, ACTION, row.context());
    const { aggregation_outcome: outcome, context_errors: errors } = decision.decision_metadata;
    if (row.limit !== undefined) {
      expect(decision.status).toBe('YELLOW');
      expect(outcome.basis).toBe('REQUEST_LIMIT');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.limit).toBe(row.limit.name);
      expect(errors[0]!.path).toBe(row.limit.path);
      expect(errors[0]!.message).toContain(`(${row.limit.name})`);
      expect(decision.decision_metadata.predicate_traces).toEqual([]);
    } else {
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
