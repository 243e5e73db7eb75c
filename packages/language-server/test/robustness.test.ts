/**
 * Nothing an author (or a stray file) puts in front of the server makes it stop answering:
 * an empty document, a binary file on disk and one opened as text, a deeply nested
 * expression, and — a property test — any sequence of random edits to a world file, after
 * which the server still answers hover, definition and completion and still publishes the
 * diagnostics of the latest version. ADEC_PROPERTY_RUNS / ADEC_PROPERTY_SEED as in
 * test/property.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Position } from 'vscode-languageserver-protocol';
import { copyExamples, LspClient } from './lsp-client.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_013 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 40 : Number(process.env['ADEC_PROPERTY_RUNS']);

let workspace: string;
let client: LspClient;

beforeAll(async () => {
  workspace = copyExamples();
  client = await LspClient.start(workspace, { debounceMs: 10 });
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await client?.stop();
});

function positionAt(text: string, offset: number): Position {
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: lines.length - 1, character: lines.at(-1)!.length };
}

/** The server answers all three requests at `position` without an error response. */
async function stillAnswers(uri: string, position: Position): Promise<void> {
  await client.hover(uri, position);
  await client.definition(uri, position);
  expect(Array.isArray(await client.completion(uri, position))).toBe(true);
}

describe('garbage in, answers out', () => {
  test('an empty document: no diagnostics of its own beyond the world\'s, and every request answered', async () => {
    const uri = await client.open('benefits/empty.adec', '');
    const published = await client.diagnostics(uri, undefined, { version: 1 });
    expect(published.diagnostics).toEqual([]);
    await stillAnswers(uri, { line: 0, character: 0 });
    expect(await client.hover(uri, { line: 0, character: 0 })).toBeNull();
    expect((await client.completion(uri, { line: 0, character: 0 })).map((i) => i.label)).toEqual(expect.arrayContaining(['world', 'action', 'test']));
    await client.close(uri);
  });

  test('a binary file on disk in the world, and a binary document opened as text', async () => {
    writeFileSync(join(workspace, 'benefits/blob.adec'), randomBytes(4096));
    const binary = new TextDecoder('utf-8', { fatal: false }).decode(randomBytes(2048));
    const uri = await client.open('fitness/noise.adec', binary);
    const published = await client.diagnostics(uri, (p) => p.diagnostics.length > 0, { version: 1 });
    expect(published.diagnostics.every((d) => typeof d.code === 'string' && d.code.startsWith('ADEC1'))).toBe(true);
    await stillAnswers(uri, positionAt(binary, 1000));

    const context = readFileSync(join(workspace, 'benefits/context.adec'), 'utf8');
    const contextUri = await client.open('benefits/context.adec', context);
    await client.diagnostics(client.uri('benefits/blob.adec'), (p) => p.diagnostics.length > 0);
    await stillAnswers(contextUri, positionAt(context, context.indexOf('employee_status') + 2));
    await client.close(contextUri);
    await client.close(uri);
  });

  test('a boolean chain of 10,000 terms and 400 nested parentheses', async () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => `open_claims > ${i}`).join(' and ');
    const nested = `${'('.repeat(400)}open_enrollment${')'.repeat(400)}`;
    const text = readFileSync(join(workspace, 'benefits/change_plan.adec'), 'utf8')
      .replace('when     is_downgrade and open_claims > 0', `when     ${chain}`)
      .replace('when       open_enrollment\n', `when       ${nested}\n`);
    const uri = await client.open('benefits/change_plan.adec', text);
    await client.diagnostics(uri, undefined, { version: 1, timeoutMs: 60_000 });
    await stillAnswers(uri, positionAt(text, text.indexOf('open_claims > 9999') + 2));
    await client.close(uri);
  });
});

describe('random edits', () => {
  const fragments = fc.constantFrom(
    '{', '}', '(', ')', '[', ']', '"', "'", '{x}', '"{', '.', '..', ':', ',', '==', '??', '?', '|', '\n', '\r\n', '\r', '//', '/*', '*/',
    'rule ', 'action ', 'when ', 'suppresses ', 'context {', 'supplied x: int', 'test "t" {', 'skill s {', 'scenario z {', 'payload.', 'action.',
    'GREEN-SKIP', 't1', '365d', '5y', '1e999', '\u0000', '\ud800', '\u201c', '😀', 'constructor', '__proto__', 'toString',
  );
  const edit = fc.record({
    at: fc.nat(),
    remove: fc.nat({ max: 40 }),
    insert: fc.oneof(fc.string({ maxLength: 20 }), fragments, fc.string({ unit: 'binary', maxLength: 12 }), fc.constant('')),
  });

  test('after any edits the server answers hover, definition and completion and publishes the latest version', async () => {
    const sources = ['benefits/change_plan.adec', 'benefits/add_dependent.tests.adec', 'fitness/fitness_daily_session.adec', 'fitness/skills/fitness_session_rationale.adec'];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sources), fc.array(edit, { minLength: 1, maxLength: 12 }), fc.nat(), async (source, edits, probe) => {
        // A new file next to the example: the world's other files stay as they are.
        const path = source.replace(/\.adec$/, `.fuzz${run++}.adec`);
        let text = readFileSync(join(workspace, source), 'utf8');
        const uri = await client.open(path, text);
        let version = 1;
        for (const { at, remove, insert } of edits) {
          const start = at % (text.length + 1);
          const end = Math.min(text.length, start + remove);
          const range = { start: positionAt(text, start), end: positionAt(text, end) };
          text = text.slice(0, start) + insert + text.slice(end);
          version = await client.change(uri, [{ range, text: insert }]);
        }
        await stillAnswers(uri, positionAt(text, probe % (text.length + 1)));
        const published = await client.diagnostics(uri, undefined, { version });
        expect(published.version).toBe(version);
        await client.close(uri);
        expect(client.alive).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(client.log).not.toMatch(/(hover|definition|references|completion|didOpen|didChange|didSave|didClose) failed|uncaught|unhandled/);
  });
});
