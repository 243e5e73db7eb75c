/**
 * Every generated module declares the ABI's own types as @adec/abi writes them
 * (packages/abi/src/module-declarations.ts, where the compiler checks them against the types a
 * host reads). The compiler holds their text in module-abi-types.generated.ts; this test keeps it
 * in step with abi's file and, with ADEC_UPDATE_GENERATED=1, rewrites it:
 *
 *   npm run generate:abi-types
 */
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../src/generate/index.js';
import { MODULE_ABI_TYPES } from '../../src/generate/module-abi-types.generated.js';
import { repoPath } from '../../../../test/support/repo.js';
import { BENEFITS_WORLD, PROVENANCE } from './fixtures.js';

const SOURCE = 'packages/abi/src/module-declarations.ts';
const GENERATED = 'packages/compiler/src/generate/module-abi-types.generated.ts';

/** The text as a template literal's body: backslashes, backquotes and `${` escaped. */
const templateBody = (text: string) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** The generated file for abi's declarations: each statement with its doc comment, as written. */
function generatedFile(): string {
  const text = readFileSync(repoPath(SOURCE), 'utf8');
  const file = ts.createSourceFile(SOURCE, text, ts.ScriptTarget.Latest, true);
  const declarations = file.statements.map((statement) => {
    if (!ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement)) throw new Error(`${SOURCE} holds a statement that is not a type: ${statement.getText(file).slice(0, 80)}`);
    return { name: statement.name.text, text: text.slice(statement.getStart(file, true), statement.end) };
  });
  return [
    `// Generated from ${SOURCE} by packages/compiler/test/generate/module-abi-types.test.ts: do not edit.`,
    '// Regenerate with `npm run generate:abi-types`',
    '// (the test fails when this file is out of date).',
    '',
    "/** The ABI's own types, as every generated module declares them, before its own. */",
    `export const MODULE_ABI_TYPES = \`${templateBody(declarations.map((declaration) => declaration.text).join('\n\n'))}\`;`,
    '',
    '/** The names they declare, which no type of a world may take. */',
    `export const MODULE_ABI_TYPE_NAMES: readonly string[] = ${JSON.stringify(declarations.map((declaration) => declaration.name))};`,
    '',
  ].join('\n');
}

describe('the ABI types a generated module declares', () => {
  it(`are @adec/abi's (${GENERATED} is up to date with ${SOURCE})`, () => {
    const expected = generatedFile();
    if (process.env['ADEC_UPDATE_GENERATED'] === '1') writeFileSync(repoPath(GENERATED), expected);
    expect(readFileSync(repoPath(GENERATED), 'utf8'), `${GENERATED} is out of date: run ADEC_UPDATE_GENERATED=1 npx vitest run packages/compiler/test/generate/module-abi-types.test.ts`).toBe(expected);
  });

  it('open every module, right after its header', () => {
    expect(generateModule(BENEFITS_WORLD, PROVENANCE)).toContain(`\n */\n\n${MODULE_ABI_TYPES}\n\n/** Context of action`);
  });
});
