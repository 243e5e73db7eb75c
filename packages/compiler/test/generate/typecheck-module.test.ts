import { describe, expect, it } from 'vitest';
import { generateModule, typecheckModule } from '../../src/generate/index.js';
import { BENEFITS_WORLD, PROVENANCE } from './fixtures.js';

const clean = generateModule(BENEFITS_WORLD, PROVENANCE);

describe('typecheckModule', () => {
  it('is clean for a generated module', () => {
    expect(typecheckModule(clean)).toEqual([]);
  });

  it('reports line:col and message for each problem', () => {
    const broken = ['export const a: number = "text";', 'export const b = missing + 1;', ''].join('\n');
    expect(typecheckModule(broken)).toEqual([
      "1:14 Type 'string' is not assignable to type 'number'. (TS2322)",
      "2:18 Cannot find name 'missing'. (TS2304)",
    ]);
  });

  it('checks with noUncheckedIndexedAccess and strict null checks', () => {
    const source = 'const m: Record<string, number> = {};\nexport const v: number = m["x"];\n';
    expect(typecheckModule(source)).toEqual([
      "2:14 Type 'number | undefined' is not assignable to type 'number'.\n  Type 'undefined' is not assignable to type 'number'. (TS2322)",
    ]);
  });

  it('offers no host or DOM globals: only the ES2022 library', () => {
    const problems = typecheckModule('export const a = process.env;\nexport const b = document.title;\nexport const c = [1].at(-1);\n');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^1:18 Cannot find name 'process'/);
    expect(problems[1]).toMatch(/^2:18 Cannot find name 'document'/);
  });

  it('reports a syntax error', () => {
    expect(typecheckModule('export const a = (1;\n')).toEqual(["1:20 ')' expected. (TS1005)"]);
  });

  it('does not carry state from one call to the next', () => {
    const broken = 'export const a: number = "x";\n';
    expect(typecheckModule(broken)).toHaveLength(1);
    expect(typecheckModule(clean)).toEqual([]);
    expect(typecheckModule(broken)).toHaveLength(1);
    expect(typecheckModule(clean)).toEqual([]);
  });
});
