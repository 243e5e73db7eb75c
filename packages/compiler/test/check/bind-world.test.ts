/**
 * `bindWorld`: the checker's own name resolution, recorded for the language server. Recording
 * changes nothing the checker reports, and names still bind where the checker skips a part
 * after an error, so hover and go to definition keep working while the author types.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { parseSource, type SourceFile } from '@adec/grammar';
import { describe, expect, test } from 'vitest';
import { bindWorld } from '../../src/check/bind-world.js';
import { checkWorld } from '../../src/check/check-world.js';
import { BindingRecorder, type BoundTarget, type WorldBindings } from '../../src/check/name-bindings.js';
import { loadWorldFromDir, repoPath } from '../../../../test/support/repo.js';
import { HEADER } from './helpers.js';

function parse(sources: readonly { path: string; text: string }[]): { files: SourceFile[]; syntaxErrors: boolean } {
  const parsed = sources.map((s) => parseSource(s.path, s.text));
  return { files: parsed.map((p) => p.file), syntaxErrors: parsed.some((p) => p.diagnostics.some((d) => d.severity === 'error')) };
}

/** Every world the repository checks: the examples, the test worlds and the diagnostics fixtures. */
function allWorlds(): (readonly { path: string; text: string }[])[] {
  const worlds = ['examples/benefits', 'examples/fitness', 'packages/engine/test/worlds/sec-lab', 'packages/engine/test/worlds/selection-lab', 'packages/runtime/test/worlds/conformance'].map((dir) => loadWorldFromDir(dir).files);
  for (const dir of ['test/diagnostics/fixtures', 'test/diagnostics/fixes']) {
    for (const entry of readdirSync(repoPath(dir))) {
      const full = repoPath(dir, entry);
      if (statSync(full).isDirectory()) worlds.push(loadWorldFromDir(`${dir}/${entry}`).files);
      else if (entry.endsWith('.adec')) worlds.push([{ path: `${dir}/${entry}`, text: readFileSync(full, 'utf8') }]);
    }
  }
  return worlds;
}

test('recording the bindings changes nothing the checker reports, on every world of the repository', () => {
  const worlds = allWorlds();
  expect(worlds.length).toBeGreaterThan(200);
  for (const sources of worlds) {
    const { files, syntaxErrors } = parse(sources);
    const plain = checkWorld(files, { analyze: !syntaxErrors });
    const recorded = checkWorld(files, { analyze: !syntaxErrors, recorder: new BindingRecorder() });
    expect(recorded, sources[0]?.path).toEqual(plain);
  }
});

/** What the name at `needle` (`delta` characters in) is bound to, as `kind name` of each declaration or the built-in. */
function boundAt(bindings: WorldBindings, text: string, needle: string, delta = 0): string[] {
  const offset = text.indexOf(needle) + delta;
  expect(text.indexOf(needle), needle).toBeGreaterThanOrEqual(0);
  const reference = bindings.references.find((r) => r.span.offset <= offset && offset < r.span.endOffset);
  const describe = (target: BoundTarget) => {
    if (target.kind !== 'declaration') return `${target.kind} ${'root' in target ? `${target.root}.` : ''}${target.name}`;
    const declaration = bindings.declarations.find((d) => d.span.offset === target.span.offset);
    return `${declaration?.kind} ${declaration?.name} at ${target.span.line}:${target.span.column}`;
  };
  return reference?.targets.map(describe) ?? [];
}

describe('a world with errors still binds what the checker resolves', () => {
  const text = [
    HEADER.trimEnd(),
    'context {',
    '  supplied kind: "child" | "spouse"',
    '  supplied age: int',
    '  system request_time: timestamp',
    '}',
    'action enroll {',
    '  rule minor { outcome RED severity t2 when kind == "child" and age < misspelled reason "{age}" }',
    '  rule twice { outcome RED severity t2 when age > 1 when kind == "spouse" suppresses minor }',
    '}',
    'test "both" {',
    '  action enroll',
    '  scenario nowhere',
    '  context { age: 3, kind: "child" }',
    '  system { request_time: "2026-01-01T00:00:00Z" }',
    '  expect RED by minor',
    '}',
  ].join('\n');
  const bindings = bindWorld([parseSource('w.adec', text).file]);

  test('around an unknown name, every other name of the condition and the reason', () => {
    expect(boundAt(bindings, text, 'kind == "child"')).toEqual(['attribute kind at 3:12']);
    expect(boundAt(bindings, text, '"child" and', 1)).toEqual(['enum-member child at 3:18']);
    expect(boundAt(bindings, text, 'age < misspelled')).toEqual(['attribute age at 4:12']);
    expect(boundAt(bindings, text, 'misspelled')).toEqual([]);
    expect(boundAt(bindings, text, '{age}', 1)).toEqual(['attribute age at 4:12']);
  });

  test('in a repeated `when`, which checking skips', () => {
    expect(boundAt(bindings, text, 'kind == "spouse"')).toEqual(['attribute kind at 3:12']);
    expect(boundAt(bindings, text, '"spouse" suppresses', 1)).toEqual(['enum-member spouse at 3:28']);
    expect(boundAt(bindings, text, 'suppresses minor', 'suppresses '.length)).toEqual(['rule minor at 8:8']);
  });

  test('in a test that names both an action and a scenario, which checking stops at', () => {
    expect(boundAt(bindings, text, 'action enroll\n', 'action '.length)).toEqual(['action enroll at 7:8']);
    expect(boundAt(bindings, text, 'age: 3')).toEqual(['attribute age at 4:12']);
    expect(boundAt(bindings, text, '"child" }', 1)).toEqual(['enum-member child at 3:18']);
    expect(boundAt(bindings, text, 'request_time: "')).toEqual(['attribute request_time at 5:10']);
    expect(boundAt(bindings, text, 'by minor', 3)).toEqual(['rule minor at 8:8']);
  });
});

test('names the language provides bind to what it provides them as', () => {
  const text = [
    HEADER.trimEnd(),
    'skill narrate {',
    '  version "1.0.0"',
    '  type deterministic',
    '  action_metadata { level: "low" | "high" }',
    '  output { text: string(..80) }',
    '  invariant "INV-1" "says the level": payload.text CONTAINS action_metadata.level and len(decision_context.decision_id) > 0',
    '  template plain { text: "{decision_context.action_metadata.level}" }',
    '}',
  ].join('\n');
  const bindings = bindWorld([parseSource('w.adec', text).file]);
  expect(boundAt(bindings, text, 'payload.text')).toEqual(['root payload']);
  expect(boundAt(bindings, text, 'payload.text', 'payload.'.length)).toEqual(['field text at 6:12']);
  expect(boundAt(bindings, text, 'action_metadata.level and', 'action_metadata.'.length)).toEqual(['field level at 5:21']);
  expect(boundAt(bindings, text, 'len(')).toEqual(['function len']);
  expect(boundAt(bindings, text, 'decision_id')).toEqual(['root-field decision_context.decision_id']);
  expect(boundAt(bindings, text, 'action_metadata.level}', 0)).toEqual(['root action_metadata']);
  expect(boundAt(bindings, text, 'text: "{')).toEqual(['field text at 6:12']);
});
