/**
 * The TextMate grammar (packages/language-server/syntaxes/adec.tmLanguage.json), tokenized
 * with the engine VS Code uses (vscode-textmate on vscode-oniguruma):
 * - every keyword the lexer defines (grammar/src/tokens.ts, read from the module, so a
 *   keyword added to the language and not to the grammar fails here) is scoped as a keyword;
 * - on the example worlds, the grammar agrees with the real lexer: every character of a
 *   string token is in a string scope, every character the lexer skips that is not
 *   whitespace (a comment) is in a comment scope, no other token is in either, numbers and
 *   durations are numeric, and `{…}` interpolations are scoped as such;
 * - the VS Code extension manifest contributes the language and this grammar.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { IToken as LexerToken, TokenType } from 'chevrotain';
import { lex } from '../../../grammar/src/lexer.js';
import { LineMap } from '../../../grammar/src/line-map.js';
import { allTokens, DoubleQuotedString, Duration, keywordText, NumberToken, SingleQuotedString } from '../../../grammar/src/tokens.js';
import { listAdecFiles, repoPath } from '../../../test/support/repo.js';

const require = createRequire(import.meta.url);
const textmate = require('vscode-textmate') as typeof import('vscode-textmate');
const oniguruma = require('vscode-oniguruma') as typeof import('vscode-oniguruma');

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const GRAMMAR_PATH = join(PACKAGE, 'syntaxes/adec.tmLanguage.json');

let grammar: import('vscode-textmate').IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName: string) => (scopeName === 'source.adec' ? textmate.parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null),
  });
  const loaded = await registry.loadGrammar('source.adec');
  if (loaded === null) throw new Error('the grammar did not load');
  grammar = loaded;
});

/** The scopes of every character of `text` (lines split as the lexer's LineMap splits them). */
function scopesOf(text: string): string[][] {
  const scopes = new Array<string[]>(text.length);
  let state = textmate.INITIAL;
  const lineBreak = /\r\n|\r|\n/g;
  let start = 0;
  for (;;) {
    const match = lineBreak.exec(text);
    const end = match === null ? text.length : match.index;
    const line = text.slice(start, end);
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) for (let i = token.startIndex; i < Math.min(token.endIndex, line.length); i++) scopes[start + i] = token.scopes;
    state = result.ruleStack;
    if (match === null) break;
    for (let i = end; i < end + match[0].length; i++) scopes[i] = [];
    start = end + match[0].length;
  }
  return scopes;
}

const KEYWORD_SCOPE = /^(keyword|storage\.type|storage\.modifier|constant\.language|support\.type)(\.[\w-]+)*\.adec$/;

describe('keywords', () => {
  const keywordTypes = allTokens.filter((t: TokenType) => keywordText.has(t));
  const spellings = keywordTypes.flatMap((t) => (t.PATTERN as RegExp).source.split('|'));

  test('the lexer module defines the keywords this test reads', () => {
    expect(spellings).toEqual(expect.arrayContaining(['world', 'suppresses', 'applies_when', 'CONTAINS_ANY', 'NO_ELIGIBLE_ACTIONS', 'IF', 'if', 'list']));
    expect(spellings.length).toBeGreaterThan(60);
  });

  test('every keyword of the lexer is scoped as a keyword, alone and before a name', () => {
    const unmatched = spellings.filter((keyword) => {
      const alone = grammar.tokenizeLine(keyword, textmate.INITIAL).tokens;
      const inLine = grammar.tokenizeLine(`  ${keyword} x`, textmate.INITIAL).tokens.find((t) => t.startIndex === 2);
      const scopeOk = (scopes: string[] | undefined) => scopes !== undefined && KEYWORD_SCOPE.test(scopes.at(-1)!);
      return !(alone.length === 1 && alone[0]!.endIndex === keyword.length && scopeOk(alone[0]!.scopes) && inLine?.endIndex === 2 + keyword.length && scopeOk(inLine.scopes));
    });
    expect(unmatched).toEqual([]);
  });

  test('a keyword inside a longer name is not a keyword, and a keyword after a dot is a property', () => {
    for (const keyword of spellings) {
      const longer = grammar.tokenizeLine(`${keyword}_x`, textmate.INITIAL).tokens;
      expect(longer.map((t) => t.scopes.at(-1)), keyword).toEqual(['variable.other.adec']);
      const property = grammar.tokenizeLine(`payload.${keyword}`, textmate.INITIAL).tokens.at(-1)!;
      expect(property.scopes.at(-1), keyword).toBe('variable.other.property.adec');
    }
  });
});

describe('the example worlds, against the lexer', () => {
  const files = [...listAdecFiles(repoPath('examples')), ...listAdecFiles(repoPath('test/diagnostics/fixtures'))];

  test.each(files.map((f) => [f.slice(repoPath().length + 1), f]))('%s: comments, strings and numbers are scoped as the lexer reads them', (_, path) => {
    const text = readFileSync(path, 'utf8');
    const { tokens, diagnostics } = lex(text, new LineMap(path, text));
    // Files with lexical errors skip characters that are neither comments nor tokens.
    if (diagnostics.length > 0) return;
    const scopes = scopesOf(text);
    const covered = new Array<LexerToken | undefined>(text.length);
    for (const token of tokens) for (let i = token.startOffset; i < token.startOffset + token.image.length; i++) covered[i] = token;

    const problems: string[] = [];
    const at = (i: number) => `${JSON.stringify(text.slice(Math.max(0, i - 15), i))}⟨${text[i]}⟩ scopes ${JSON.stringify(scopes[i])}`;
    for (let i = 0; i < text.length; i++) {
      const token = covered[i];
      const has = (prefix: string) => (scopes[i] ?? []).some((s) => s.startsWith(prefix));
      if (token === undefined) {
        if (text[i]!.trim() !== '' && !has('comment.')) problems.push(`comment character not in a comment scope: ${at(i)}`);
      } else if (token.tokenType === DoubleQuotedString || token.tokenType === SingleQuotedString) {
        if (!has('string.quoted.')) problems.push(`string character not in a string scope: ${at(i)}`);
      } else {
        if (has('comment.') || has('string.')) problems.push(`${token.tokenType.name} in a comment or string scope: ${at(i)}`);
        if (token.tokenType === NumberToken && !has('constant.numeric.adec')) problems.push(`number not numeric: ${at(i)}`);
        if (token.tokenType === Duration && !has('constant.numeric.duration.adec')) problems.push(`duration not a duration: ${at(i)}`);
      }
      if (problems.length > 5) break;
    }
    expect(problems).toEqual([]);

    // Interpolations: the names between `{` and `}` of a reason, prompt or template.
    for (const token of tokens.filter((t) => t.tokenType === DoubleQuotedString)) {
      for (const match of token.image.matchAll(/(?<!\{)\{([A-Za-z_][\w.]*)\}/g)) {
        const inner = token.startOffset + match.index + 1;
        expect(scopes[inner], at(inner)).toContain('meta.interpolation.adec');
        expect(scopes[inner + match[1]!.length], at(inner + match[1]!.length)).toContain('punctuation.section.interpolation.end.adec');
      }
    }
  });

  test('patterns are not interpolations, escapes are escapes, an unterminated string ends at the line end', () => {
    const text = 'when x MATCHES "\\d{2,4}\\"q" and y == "a {{literal}} {x ?? \\"none\\"} b"\nreason "open\nwhen z';
    const scopes = scopesOf(text);
    const quantifier = text.indexOf('{2,4}');
    expect(scopes[quantifier]).not.toContain('meta.interpolation.adec');
    expect(scopes[text.indexOf('\\"q')]).toContain('constant.character.escape.adec');
    expect(scopes[text.indexOf('{{')]).toContain('constant.character.escape.brace.adec');
    expect(scopes[text.indexOf('none')]).toContain('meta.interpolation.adec');
    expect(scopes[text.indexOf(' b"')]).toContain('string.quoted.double.adec');
    expect(scopes[text.lastIndexOf('when')]).toEqual(['source.adec', 'keyword.other.clause.adec']);
  });

  test('every scope the grammar names ends in `.adec`', () => {
    const names = [...readFileSync(GRAMMAR_PATH, 'utf8').matchAll(/"(?:name|contentName)": "([^"]+)"/g)].map((m) => m[1]!).filter((n) => n !== 'adec');
    expect(names.filter((n) => !n.endsWith('.adec'))).toEqual([]);
  });
});

/** What these tests read of the extension's package.json. */
interface ExtensionManifest {
  readonly main: string;
  readonly contributes: { readonly languages: readonly { readonly configuration: string }[]; readonly grammars: readonly { readonly path: string }[] };
}

describe('the VS Code extension', () => {
  const extension = join(PACKAGE, 'editors/vscode');
  const manifest = JSON.parse(readFileSync(join(extension, 'package.json'), 'utf8')) as ExtensionManifest;

  test('contributes the adec language, its configuration and this grammar', () => {
    const [language] = manifest.contributes.languages;
    expect(language).toMatchObject({ id: 'adec', extensions: ['.adec'] });
    const configuration = JSON.parse(readFileSync(resolve(extension, language!.configuration), 'utf8')) as { comments: unknown; brackets: unknown };
    expect(configuration.comments).toEqual({ lineComment: '//', blockComment: ['/*', '*/'] });
    expect(configuration.brackets).toEqual(expect.arrayContaining([['{', '}'], ['[', ']'], ['(', ')']]));
    const [contributed] = manifest.contributes.grammars;
    expect(contributed).toMatchObject({ language: 'adec', scopeName: 'source.adec' });
    expect(resolve(extension, contributed!.path)).toBe(GRAMMAR_PATH);
  });

  test('its entry point is valid JavaScript that starts the server from this package', () => {
    const main = resolve(extension, manifest.main);
    expect(existsSync(main)).toBe(true);
    execFileSync(process.execPath, ['--check', main]);
    expect(readFileSync(main, 'utf8')).toContain('adec-language-server');
    expect(existsSync(resolve(dirname(main), '../../bin/adec-language-server.js'))).toBe(true);
  });
});
