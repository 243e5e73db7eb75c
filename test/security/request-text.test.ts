/**
 * A request's text is read strictly (issue 12, finding 9): invalid UTF-8 and a key that occurs
 * twice in one object are refused with their position (byte offset, line, column), never
 * repaired (U+FFFD) or resolved (the last key wins): by the reader the runtime gives hosts
 * (`parseRequestJson`) and by `adec eval`, which used to do both silently. Property tests put
 * ill-formed UTF-8 sequences and repeated keys at random places and depths of random JSON, and
 * check that the reader agrees with JSON.parse on everything else.
 *
 * Replay a failure with ADEC_PROPERTY_SEED=<seed>; run longer with ADEC_PROPERTY_RUNS=<n>.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '@adec/cli';
import { checkValueLimits, DEFAULT_REQUEST_LIMITS, firstInvalidUtf8, parseRequestJson, type RequestJson, type RequestJsonProblem } from '@adec/runtime';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../../packages/cli/test/run-cli.js';
import { asTestBundle, buildFixture, publish, testKeys } from '../support/runtime.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_125 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? undefined : Number(process.env['ADEC_PROPERTY_RUNS']);
const property = (numRuns: number) => ({ seed: SEED, numRuns: RUNS ?? numRuns });

const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);
const concat = (...parts: ArrayLike<number>[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => Array.from(part)));

/** Where a text that starts with `prefix` has come to, as an editor shows it (from 1, columns in characters). */
function position(prefix: string): { line: number; column: number } {
  const lines = prefix.split('\n');
  return { line: lines.length, column: Array.from(lines[lines.length - 1]!).length + 1 };
}

function problemOf(result: RequestJson): RequestJsonProblem {
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.value)}`);
  return result.problem;
}

/** Random JSON text, compact or indented (so positions fall on many lines), over all of Unicode. */
const jsonText = fc
  .tuple(fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 4 }), fc.constantFrom(undefined, 1, '\t', ' \r\n'))
  .map(([value, indent]) => (indent === ' \r\n' ? JSON.stringify(value, null, 1).replaceAll('\n', '\r\n') : JSON.stringify(value, null, indent)));

const continuation = fc.integer({ min: 0x80, max: 0xbf });

/** Byte sequences that are ill-formed from their first byte on, whatever well-formed text follows. */
const illFormed = fc.oneof(
  continuation.map((b) => [b]),
  fc.tuple(fc.constantFrom(0xc0, 0xc1, 0xf5, 0xf8, 0xfc, 0xfe, 0xff), fc.array(continuation, { maxLength: 3 })).map(([b, rest]) => [b, ...rest]),
  fc.integer({ min: 0xc2, max: 0xf4 }).map((lead) => [lead]),
  fc.tuple(fc.integer({ min: 0xe1, max: 0xef }), continuation).map(([lead, b]) => [lead, b]),
  fc.tuple(fc.integer({ min: 0xf1, max: 0xf3 }), continuation, continuation).map(([lead, b, c]) => [lead, b, c]),
  fc.tuple(fc.integer({ min: 0x80, max: 0x9f }), continuation).map(([b, c]) => [0xe0, b, c]),
  fc.tuple(fc.integer({ min: 0xa0, max: 0xbf }), continuation).map(([b, c]) => [0xed, b, c]),
  fc.tuple(fc.integer({ min: 0x80, max: 0x8f }), continuation, continuation).map(([b, c, d]) => [0xf0, b, c, d]),
  fc.tuple(fc.integer({ min: 0x90, max: 0xbf }), continuation, continuation).map(([b, c, d]) => [0xf4, b, c, d]),
);

const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;

describe('invalid UTF-8', () => {
  test('an ill-formed sequence anywhere in valid JSON is refused at its first byte, with line and column', () => {
    fc.assert(
      fc.property(jsonText, illFormed, fc.nat(), (text, sequence, where) => {
        const characters = Array.from(text);
        const cut = where % (characters.length + 1);
        const prefix = characters.slice(0, cut).join('');
        const bytes = concat(utf8(prefix), sequence, utf8(characters.slice(cut).join('')));
        const problem = problemOf(parseRequestJson(bytes));
        const offset = utf8(prefix).length;
        const { line, column } = position(prefix);
        expect(problem).toEqual({ code: 'NOT_UTF8', byteOffset: offset, line, column, message: `invalid UTF-8 (byte ${hex(sequence[0]!)}) at byte ${offset} (line ${line}, column ${column})` });
      }),
      property(300),
    );
  });

  test('the bad byte found is where the fatal decoder stops: before it every byte is well-formed', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const decodes = (bytes: Uint8Array) => {
      try {
        decoder.decode(bytes);
        return true;
      } catch {
        return false;
      }
    };
    const byte = fc.oneof(fc.integer({ min: 0, max: 0xff }), fc.constantFrom(0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.array(byte, { maxLength: 24 }), (random, nearValid) => {
        for (const bytes of [random, Uint8Array.from(nearValid)]) {
          const offset = firstInvalidUtf8(bytes);
          expect(offset === undefined).toBe(decodes(bytes));
          if (offset !== undefined) expect(decodes(bytes.subarray(0, offset))).toBe(true);
        }
      }),
      property(2_000),
    );
  });

  test('a lone surrogate can only be escaped, and then it is data', () => {
    const result = parseRequestJson(utf8('{"documents":["\\ud800"]}'));
    expect(result).toEqual({ ok: true, value: { documents: ['\ud800'] } });
    // The surrogate U+D800 written as UTF-8 bytes (ED A0 80) is not UTF-8.
    expect(problemOf(parseRequestJson(concat(utf8('{"documents":["'), [0xed, 0xa0, 0x80], utf8('"]}')))).code).toBe('NOT_UTF8');
  });
});

interface DuplicateCase {
  readonly text: string;
  /** Index (UTF-16 units) of the opening quote of the key's second occurrence. */
  readonly at: number;
}

/** Every UTF-16 unit of `key` as \uXXXX: the same key, spelt differently. */
const escapedKey = (key: string) => `"${[...Array(key.length).keys()].map((i) => `\\u${key.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;

/**
 * An object with a repeated key, at a random depth below lists and objects, with random
 * spacing; the repeat is spelt as JSON.stringify spells it or with \u escapes.
 */
const duplicateCase: fc.Arbitrary<DuplicateCase> = fc
  .record({
    members: fc.uniqueArray(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 2 })), { minLength: 1, maxLength: 5, selector: ([key]) => key }),
    repeated: fc.nat(),
    place: fc.nat(),
    escaped: fc.boolean(),
    value: fc.jsonValue({ maxDepth: 1 }),
    wrappers: fc.array(fc.record({ list: fc.boolean(), before: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), after: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }) }), { maxLength: DEFAULT_REQUEST_LIMITS.maxDepth - 4 }),
    space: fc.constantFrom('', ' ', '\n', '\r\n\t'),
  })
  .map(({ members, repeated, place, escaped, value, wrappers, space }) => {
    const member = (key: string, item: unknown) => `${space}${key}${space}:${space}${JSON.stringify(item)}`;
    const index = repeated % members.length;
    const [key] = members[index]!;
    const insertAt = index + 1 + (place % (members.length - index));
    const written = members.map(([k, item]) => member(JSON.stringify(k), item));
    const before = `{${[...written.slice(0, insertAt), ''].join(',')}`;
    let text = `${before}${member(escaped ? escapedKey(key) : JSON.stringify(key), value)}${['', ...written.slice(insertAt)].join(',')}${space}}`;
    let at = before.length + space.length;
    for (const wrapper of wrappers) {
      const items = (values: unknown[]) => values.map((item, i) => (wrapper.list ? JSON.stringify(item) : `"k${i}":${JSON.stringify(item)}`));
      const left = `${wrapper.list ? '[' : '{'}${space}${[...items(wrapper.before), wrapper.list ? '' : '"inner":'].join(',')}`;
      const right = `${['', ...items(wrapper.after).map((item) => item.replace(/^"k/, '"j'))].join(',')}${space}${wrapper.list ? ']' : '}'}`;
      text = `${left}${text}${right}`;
      at += left.length;
    }
    return { text, at };
  });

describe('duplicate keys', () => {
  test('a key that occurs twice in one object, at any depth and however spelt, is refused at its second occurrence', () => {
    fc.assert(
      fc.property(duplicateCase, ({ text, at }) => {
        // Valid JSON, which JSON.parse would silently read with the last value.
        expect(() => JSON.parse(text) as unknown).not.toThrow();
        const problem = problemOf(parseRequestJson(utf8(text)));
        const prefix = text.slice(0, at);
        const { line, column } = position(prefix);
        expect(problem.code).toBe('DUPLICATE_KEY');
        expect(problem.message).toMatch(/^the key `.*` occurs twice in one object at byte \d+ \(line \d+, column \d+\)$/s);
        expect(problem).toMatchObject({ byteOffset: utf8(prefix).length, line, column });
      }),
      property(300),
    );
  });

  test('the same key in different objects is no duplicate', () => {
    const text = '{"a":{"a":1,"b":{"a":2}},"b":[{"a":1,"b":2},{"a":3,"b":4}],"c":"\\"a\\":1"}';
    expect(parseRequestJson(utf8(text))).toEqual({ ok: true, value: JSON.parse(text) as unknown });
  });

  test.each([
    ['__proto__', '{"__proto__":{"a":1},"__proto__":{"b":2}}'],
    ['an empty key', '{"":1,"":2}'],
    ['keys equal once unescaped', '{"dependent_age":30,"dependent\\u005fage":1}'],
  ])('%s twice is refused', (_name, text) => {
    expect(problemOf(parseRequestJson(utf8(text))).code).toBe('DUPLICATE_KEY');
  });
});

describe('everything else is JSON.parse', () => {
  const mutation = fc.record({ at: fc.nat(), op: fc.constantFrom('insert', 'delete', 'replace'), char: fc.constantFrom(...Array.from('{}[],:"\\ -+.019eEtrufalsn\u0000\u001f\t\n\r\u00a0\u2028\ufeff')) });

  test('valid JSON reads as JSON.parse reads it', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parseRequestJson(utf8(text))).toEqual({ ok: true, value: JSON.parse(text) as unknown });
      }),
      property(300),
    );
  });

  test('mutated JSON is refused exactly when JSON.parse refuses it, at a position inside the text', () => {
    fc.assert(
      fc.property(jsonText, fc.array(mutation, { minLength: 1, maxLength: 3 }), (original, mutations) => {
        let text = original;
        for (const { at, op, char } of mutations) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + (op === 'delete' ? '' : char) + text.slice(op === 'insert' ? i : i + 1);
        }
        const bytes = utf8(text);
        // A mutation may split a surrogate pair: the bytes then hold U+FFFD, which is what JSON.parse must see too.
        const decoded = new TextDecoder().decode(bytes);
        let expected: { value: unknown } | undefined;
        try {
          expected = { value: JSON.parse(decoded) as unknown };
        } catch {
          expected = undefined;
        }
        const result = parseRequestJson(bytes);
        if (result.ok) expect(result.value).toEqual(expected?.value);
        else {
          // A mutation can also make two keys of one object equal.
          expect(result.problem.code === 'DUPLICATE_KEY' || (expected === undefined && result.problem.code === 'NOT_JSON')).toBe(true);
          expect(result.problem.byteOffset).toBeLessThanOrEqual(bytes.length);
          expect(result.problem.message).toMatch(/ at byte \d+ \(line \d+, column \d+\)$/);
        }
      }),
      property(1_000),
    );
  });

  test.each([
    ['the empty text', '', 0, 'the text ends where a value was expected'],
    ['a trailing comma', '{"a":1,}', 7, 'unexpected `}`, expected a key in double quotes'],
    ['a bare word', '{"a":tru}', 5, 'unexpected `t`, expected a value'],
    ['a raw control character', '["a\u0001"]', 3, 'a control character (U+0001) in a string: it must be escaped'],
    ['an invalid escape', '"\\x"', 1, 'an invalid escape in a string'],
    ['a second value', '{}\n {}', 4, 'unexpected `{`, expected the end of the text after the value'],
    ['a leading zero', '[01]', 2, 'unexpected `1`, expected `,` or `]`'],
    ['a string never closed', '{"a":"b', 5, 'a string that is not closed'],
  ])('%s is refused with its position', (_name, text, byteOffset, what) => {
    const problem = problemOf(parseRequestJson(utf8(text)));
    expect(problem.code).toBe('NOT_JSON');
    expect(problem.byteOffset).toBe(byteOffset);
    expect(problem.message).toBe(`${what} at byte ${byteOffset} (line ${position(text.slice(0, byteOffset)).line}, column ${position(text.slice(0, byteOffset)).column})`);
  });

  test('a leading byte order mark is ignored; anywhere else it is not JSON', () => {
    const bom = [0xef, 0xbb, 0xbf];
    expect(parseRequestJson(concat(bom, utf8('{"a":[1]}')))).toEqual({ ok: true, value: { a: [1] } });
    // Byte offsets count the mark; columns do not, as an editor shows none.
    expect(problemOf(parseRequestJson(concat(bom, utf8('{"a":}'))))).toMatchObject({ code: 'NOT_JSON', byteOffset: 8, line: 1, column: 6 });
    expect(problemOf(parseRequestJson(concat(utf8('{"a":'), bom, utf8('1}'))))).toMatchObject({ code: 'NOT_JSON', byteOffset: 5, message: expect.stringMatching(/^unexpected U\+FEFF/) });
  });
});

describe('limits on a request text', () => {
  test('nesting is refused past maxDepth, exactly where a decision would refuse the value', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: DEFAULT_REQUEST_LIMITS.maxDepth + 4 }), (lists) => {
        const text = lists.map((list) => (list ? '[' : '{"k":')).join('') + '0' + lists.map((list) => (list ? ']' : '}')).reverse().join('');
        const result = parseRequestJson(utf8(text));
        const overDepth = checkValueLimits(JSON.parse(text), DEFAULT_REQUEST_LIMITS)?.limit === 'maxDepth';
        expect(result.ok).toBe(!overDepth);
        if (!result.ok) {
          expect(result.problem.code).toBe('REQUEST_LIMIT');
          expect(result.problem.message).toMatch(/^nested deeper than 32 levels \(maxDepth\) at byte/);
        }
      }),
      property(200),
    );
  });

  test('100,000-deep and 100 MB texts are refused before they are parsed', () => {
    const deep = utf8('['.repeat(100_000) + ']'.repeat(100_000));
    expect(problemOf(parseRequestJson(deep))).toMatchObject({ code: 'REQUEST_LIMIT', byteOffset: DEFAULT_REQUEST_LIMITS.maxDepth });
    const huge = new Uint8Array(100 * 1024 * 1024).fill(0x20);
    expect(problemOf(parseRequestJson(huge))).toMatchObject({ code: 'REQUEST_LIMIT', message: expect.stringContaining('(maxRequestBytes)') });
    expect(parseRequestJson(utf8('[[1]]'), { ...DEFAULT_REQUEST_LIMITS, maxDepth: 1 })).toMatchObject({ ok: false, problem: { code: 'REQUEST_LIMIT', byteOffset: 1 } });
  });
});

describe('adec eval reads its context strictly', () => {
  /** `ineligible_over_age`, t1 RED, when read as written. */
  const RED = { relationship: 'child', dependent_age: 30, documents: ['birth_certificate'] };
  const RED_TEXT = JSON.stringify(RED, null, 2);
  let workspace: string;
  let bundleDir: string;
  let files = 0;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'adec-request-text-'));
    bundleDir = publish(asTestBundle(await buildFixture('examples/benefits')), join(workspace, 'store'), testKeys());
  });

  function contextFile(bytes: Uint8Array): string {
    const name = `context-${files++}.json`;
    writeFileSync(join(workspace, name), bytes);
    return name;
  }

  const evalFile = (file: string) => runCli(['eval', bundleDir, '--action', 'add_dependent', '--context', file, '--isolation', 'in-process'], workspace);

  test('a legitimate RED, with or without a byte order mark, is RED', async () => {
    for (const bytes of [utf8(RED_TEXT), concat([0xef, 0xbb, 0xbf], utf8(RED_TEXT))]) {
      const run = await evalFile(contextFile(bytes));
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'RED', decision_metadata: { aggregation_outcome: { winning_rule: 'ineligible_over_age' } } });
    }
  });

  test('invalid UTF-8 anywhere in the context file exits 1, naming the byte, its offset, line and column', async () => {
    await fc.assert(
      fc.asyncProperty(illFormed, fc.nat(), async (sequence, where) => {
        const prefix = RED_TEXT.slice(0, where % (RED_TEXT.length + 1));
        const file = contextFile(concat(utf8(prefix), sequence, utf8(RED_TEXT.slice(prefix.length))));
        const run = await evalFile(file);
        const { line, column } = position(prefix);
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(`adec eval: the context in ${file} is not UTF-8: invalid UTF-8 (byte ${hex(sequence[0]!)}) at byte ${prefix.length} (line ${line}, column ${column})\n`);
      }),
      property(25),
    );
  });

  test('a key repeated in the context file exits 1 at its second occurrence, instead of deciding with the last value', async () => {
    // Read last-wins, the repeat would make the RED a GREEN.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(RED)), fc.boolean(), async (key, escaped) => {
        const repeat = `,\n  ${escaped ? escapedKey(key) : JSON.stringify(key)}: ${JSON.stringify({ relationship: 'child', dependent_age: 8, documents: ['birth_certificate'] }[key])}\n}`;
        const text = RED_TEXT.replace(/\n\}$/, repeat);
        const at = RED_TEXT.length - 2 + ',\n  '.length;
        const file = contextFile(utf8(text));
        const run = await evalFile(file);
        const { line, column } = position(text.slice(0, at));
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(`adec eval: the context in ${file} repeats a key: the key \`${key}\` occurs twice in one object at byte ${at} (line ${line}, column ${column})\n`);
      }),
      property(6),
    );
  });

  test('from standard input too', async () => {
    let stderr = '';
    const code = await main(['eval', bundleDir, '--action', 'add_dependent', '--context', '-', '--isolation', 'in-process'], {
      cwd: workspace,
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      readStdin: async () => concat(utf8('{"relationship":"child",\n"dependent_age":30,"dependent_age":8}')),
    });
    expect(code).toBe(1);
    expect(stderr).toContain('the context in standard input repeats a key: the key `dependent_age` occurs twice in one object at byte 44 (line 2, column 20)');
  });

  test('a context file over maxRequestBytes exits 1 naming the limit', async () => {
    const file = contextFile(concat(utf8(RED_TEXT), new Uint8Array(DEFAULT_REQUEST_LIMITS.maxRequestBytes).fill(0x20)));
    const run = await evalFile(file);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`the context in ${file} is over a request limit: .*\\(maxRequestBytes\\)`));
  });
});
