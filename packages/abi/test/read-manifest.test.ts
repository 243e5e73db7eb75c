/**
 * readManifest reads the manifests a runtime meets: the ones this compiler writes, the ABI 1
 * manifest of a kept legacy bundle, and broken ones, which it refuses with a problem naming
 * the JSON path of what is wrong, never with a throw.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { childPath, MAX_SCHEMA_DEPTH, readManifest, type AbiProblem, type AbiResult, type AnyManifest } from '@adec/abi';
import { buildFixture } from '../../../test/support/runtime.js';
import { repoPath } from '../../../test/support/repo.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const legacyManifest = (): Json => JSON.parse(readFileSync(repoPath('packages', 'runtime', 'test', 'fixtures', 'legacy-abi1', 'manifest.json'), 'utf8')) as Json;

let benefits: Json;
let fitness: Json;
beforeAll(async () => {
  benefits = JSON.parse((await buildFixture('examples/benefits')).manifestJson) as Json;
  fitness = JSON.parse((await buildFixture('examples/fitness')).manifestJson) as Json;
});

function refused(result: AbiResult<AnyManifest>): readonly AbiProblem[] {
  if (result.ok) throw new Error('the manifest was read');
  return result.problems;
}

/** A copy of `value` with the value at `path` (keys and indexes) replaced by `by`, or removed when `by` is undefined. */
function edited(value: Json, path: readonly (string | number)[], by: Json | undefined): Json {
  const copy = structuredClone(value);
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[key]!;
  const last = path.at(-1)!;
  if (by === undefined) Reflect.deleteProperty(parent as object, last);
  else (parent as Record<string | number, Json>)[last] = by;
  return copy;
}

const pathText = (path: readonly (string | number)[]) => path.reduce<string>((at, key) => childPath(at, key), '');

describe('the manifests this compiler writes', () => {
  it('read as the current ABI', () => {
    for (const manifest of [benefits, fitness]) {
      const result = readManifest(manifest);
      expect(result).toEqual({ ok: true, value: manifest });
      expect(result.ok && result.value.abi_version).toBe(2);
    }
  });
});

describe("a manifest's skill contract documents", () => {
  it('may be absent (a compiler older than them), and are otherwise a list of objects, whose shape is @adec/contracts\' to check', () => {
    expect(readManifest(edited(fitness, ['skill_contracts'], undefined)).ok).toBe(true);
    expect(refused(readManifest(edited(fitness, ['skill_contracts'], 'none'))).map((p) => p.path)).toEqual(['skill_contracts']);
    expect(refused(readManifest(edited(fitness, ['skill_contracts', 1], 7))).map((p) => p.path)).toEqual(['skill_contracts[1]']);
    expect(readManifest(edited(fitness, ['skill_contracts', 0, 'timeout'], 'any')).ok).toBe(true);
  });
});

describe('a manifest of an older ABI', () => {
  it('reads an ABI 1 manifest (rules graded by status, actions with only their context schema)', () => {
    const result = readManifest(legacyManifest());
    expect(result.ok && result.value.abi_version).toBe(1);
    expect(result.ok && Object.keys(result.value.actions)).toEqual(['issue_refund']);
  });

  it('holds an ABI 1 manifest to the ABI 1 shape', () => {
    const problems = refused(readManifest(edited(legacyManifest(), ['rules', 1, 'severity'], 't1')));
    expect(problems).toEqual([{ code: 'VALUE_NOT_ALLOWED', path: 'rules[1].severity', message: '`rules[1].severity` is string "t1", expected one of "GREEN", "GREEN-SKIP", "YELLOW", "RED"' }]);
  });

  it('refuses an ABI it does not read, naming the versions it does', () => {
    expect(refused(readManifest(edited(benefits, ['abi_version'], 3)))).toEqual([
      { code: 'ABI_VERSION_UNSUPPORTED', path: 'abi_version', message: '`abi_version` is the number 3, expected one of 1, 2' },
    ]);
    expect(refused(readManifest(edited(benefits, ['abi_version'], undefined)))[0]).toMatchObject({ code: 'FIELD_MISSING', path: 'abi_version' });
  });
});

describe('a malformed manifest', () => {
  it('is refused with every problem and its path', () => {
    const broken = edited(edited(edited(benefits, ['module_hash'], undefined), ['rules', 0, 'outcome'], 'ORANGE'), ['actions', 'add_dependent', 'rule_count'], -1);
    expect(refused(readManifest(broken)).map((p) => [p.code, p.path])).toEqual([
      ['FIELD_MISSING', 'module_hash'],
      ['VALUE_NOT_ALLOWED', 'rules[0].outcome'],
      ['VALUE_NOT_ALLOWED', 'actions.add_dependent.rule_count'],
    ]);
  });

  it('refuses a schema keyword the runtime would not enforce', () => {
    const problems = refused(readManifest(edited(benefits, ['actions', 'add_dependent', 'context_schema', 'properties', 'dependent_age', 'multipleOf'], 2)));
    expect(problems).toEqual([
      {
        code: 'VALUE_NOT_ALLOWED',
        path: 'actions.add_dependent.context_schema.properties.dependent_age.multipleOf',
        message: '`actions.add_dependent.context_schema.properties.dependent_age.multipleOf` is a schema keyword adec does not enforce',
      },
    ]);
  });

  it('refuses schemas nested without end instead of exhausting the stack', () => {
    let schema: Json = { type: 'string' };
    for (let depth = 0; depth < 100_000; depth += 1) schema = { type: 'array', items: schema };
    const problems = refused(readManifest(edited(benefits, ['actions', 'add_dependent', 'context_schema', 'properties', 'dependent_age'], schema)));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'NESTED_TOO_DEEP', message: expect.stringContaining(`more than ${MAX_SCHEMA_DEPTH} levels deep`) });
  });

  it('is refused, never thrown, whatever JSON it is', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = readManifest(value);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('names the path of any value of the wrong type', () => {
    // Every leaf and object of a real manifest, except inside values any JSON may take (`default`, `enum`).
    const paths: (string | number)[][] = [];
    const walk = (value: Json, path: (string | number)[]) => {
      if (path.length > 0) paths.push(path);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (key === 'default' || key === 'enum') continue;
        walk(child, [...path, Array.isArray(value) ? Number(key) : key]);
      }
    };
    walk(benefits, []);
    const otherKind = (value: Json): Json => (typeof value === 'string' ? 7 : Array.isArray(value) ? {} : value !== null && typeof value === 'object' ? [] : 'seven');
    fc.assert(
      fc.property(fc.constantFrom(...paths), (path) => {
        const original = path.reduce<Json>((value, key) => (value as Record<string | number, Json>)[key]!, benefits);
        const problems = refused(readManifest(edited(benefits, path, otherKind(original))));
        expect(problems.map((p) => p.path)).toContain(pathText(path));
      }),
      { numRuns: 300 },
    );
  });
});
