import { describe, expect, it } from 'vitest';
import { bundleModule } from '../../src/bundle/index.js';
import { findForbiddenConstructs, generateModule } from '../../src/generate/index.js';
import { BENEFITS_WORLD, PROVENANCE } from './fixtures.js';

describe('findForbiddenConstructs', () => {
  it('accepts the generated module and its bundle', async () => {
    const source = generateModule(BENEFITS_WORLD, PROVENANCE);
    expect(findForbiddenConstructs(source)).toEqual([]);
    expect(findForbiddenConstructs(await bundleModule(source))).toEqual([]);
  });

  it.each([
    ['import fs from "node:fs";', 'import'],
    ['import x = require("fs");', 'import'],
    ['export * from "./other";', 'export … from'],
    ['const m = import("node:fs");', 'import()'],
    ['const u = import.meta.url;', 'import.meta'],
    ['const fs = require("fs");', 'require'],
    ['eval("1 + 1");', 'eval'],
    ['const f = new Function("return 1");', 'Function'],
    ['const f = Function("return 1");', 'Function'],
    ['const now = Date.now();', 'Date'],
    ['const d = new Date();', 'Date'],
    ['const r = Math.random();', 'Math.random'],
    ['const r = Math["random"]();', 'Math.random'],
    ['const g = globalThis;', 'globalThis'],
    ['const e = process.env.SECRET;', 'process'],
    ['setTimeout(() => 1, 0);', 'setTimeout'],
    ['setInterval(() => 1, 0);', 'setInterval'],
    ['queueMicrotask(() => 1);', 'queueMicrotask'],
    ['fetch("https://example.com");', 'fetch'],
    ['const x = new XMLHttpRequest();', 'XMLHttpRequest'],
    ['WebAssembly.compile(new Uint8Array());', 'WebAssembly'],
    ['const p = new Proxy({}, {});', 'Proxy'],
    ['Reflect.ownKeys({});', 'Reflect'],
    ['const F = (() => 1).constructor;', '.constructor'],
    ['const F = (() => 1)["constructor"];', '.constructor'],
    ['const o = {}; o.__proto__ = null;', '.__proto__'],
    ['const ev = ({} as any)["eval"];', '["eval"]'],
    ['console.log("x");', 'console'],
    ['with (Math) { max(1, 2); }', 'with'],
    ['debugger;', 'debugger'],
  ])('rejects %s', (snippet, construct) => {
    const problems = findForbiddenConstructs(snippet);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toContain(`\`${construct}\``);
    expect(problems[0]).toMatch(/^1:\d+ forbidden construct .*\(line 1\)$/);
  });

  it('names the line of each construct', () => {
    const problems = findForbiddenConstructs(['const a = 1;', 'const b = Date.now();', '', 'const c = Math.random();'].join('\n'));
    expect(problems).toEqual([
      '2:11 forbidden construct `Date`: reads the clock (non-deterministic) (line 2)',
      '4:11 forbidden construct `Math.random`: randomness (non-deterministic) (line 4)',
    ]);
  });

  it('is not fooled by strings, comments or property names', () => {
    const source = [
      '// Date.now() and require("fs") in a comment',
      'const text = "eval(process.env) Math.random()";',
      'const data = { process: 1, Date: "d", fetch: true };',
      'const ctx = { process: 2 }; const v = ctx.process;',
      'interface I { readonly Date: string }',
      'const m = Math.max(1, 2);',
    ].join('\n');
    expect(findForbiddenConstructs(source)).toEqual([]);
  });

  it.each([
    ['const d = D\\u0061te.now();', 'Date'],
    ['const d = \\u{44}ate.now();', 'Date'],
    ['const e = ({} as any)["\\x65val"];', '["eval"]'],
    ['const e = ({} as any)["\\u0065val"];', '["eval"]'],
    ['const e = ({} as any)["ev\\\nal"];', '["eval"]'],
  ])('sees through escapes that spell a forbidden name: %s', (snippet, construct) => {
    expect(findForbiddenConstructs(snippet)).toEqual([expect.stringContaining(`\`${construct}\``)]);
  });

  it('finds a construct deep inside a generated module, on its own line', () => {
    const source = generateModule(BENEFITS_WORLD, PROVENANCE);
    const lines = source.split('\n');
    const index = lines.findIndex((line) => line.includes(' satisfies boolean ? '));
    lines[index] = lines[index]!.replace(' satisfies boolean ? ', ' && Date.now() > 0 satisfies boolean ? ');
    const column = lines[index].indexOf('Date') + 1;
    expect(findForbiddenConstructs(lines.join('\n'))).toEqual([
      `${index + 1}:${column} forbidden construct \`Date\`: reads the clock (non-deterministic) (line ${index + 1})`,
    ]);
  });
});
