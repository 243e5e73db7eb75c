/**
 * Property tests of `adec fmt` (fast-check) over generated worlds: the contract of
 * format-contract.ts (idempotent, same AST, same comments, same diagnostics, syntax errors
 * refused with the parser's diagnostics) on
 *
 * * the grammar-based generator of well-formed-ish worlds (test/property/world-generator.ts),
 * * valid adjudication and selection worlds (valid-world-generator.ts, valid-selection-…),
 * * random edits of the example worlds and token soups (most are refused: they must be),
 * * real files with their whitespace redistributed and with comments inserted anywhere.
 *
 * And one property of the canonical layout: spaces and tabs do not matter, only line breaks
 * (where the author may break a line) do: re-spacing a file within its lines formats to the
 * same text. fast-check prints the seed and the shrunk counterexample on failure; replay with
 * ADEC_PROPERTY_SEED=<seed>; ADEC_PROPERTY_RUNS=<n> sets the runs per property.
 */
import { commentTexts, formatSource, type WorldSources } from '@adec/compiler';
import { parseSource, sourceTokens } from '@adec/grammar';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusWorlds } from '../property/corpus.js';
import { mutatedWorld } from '../property/mutations.js';
import { validSelectionWorld } from '../property/valid-selection-world-generator.js';
import { validWorld } from '../property/valid-world-generator.js';
import { tokenSoup } from '../property/vocabulary.js';
import { edgeNumberWorld, generatedWorld } from '../property/world-generator.js';
import { expectFormatContract } from './format-contract.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_260_301 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS_OVERRIDE = process.env['ADEC_PROPERTY_RUNS'] === undefined ? undefined : Number(process.env['ADEC_PROPERTY_RUNS']);

function settings(runs: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns: RUNS_OVERRIDE ?? runs };
}

const oneFile = (root: string) => (text: string): WorldSources => ({ root, files: [{ path: `${root}/world.adec`, text }] });

const examples = corpusWorlds('examples');
const exampleFiles = examples.flatMap((world) => world.files);

/** Real, valid files: the examples' files and generated valid worlds. */
const validFile: fc.Arbitrary<{ path: string; text: string }> = fc.oneof(
  fc.constantFrom(...exampleFiles),
  validWorld().map((text) => ({ path: 'valid/world.adec', text })),
  validSelectionWorld().map((text) => ({ path: 'selection/world.adec', text })),
);

/** A file's tokens with the text between them (whitespace and comments) and where each gap starts. */
function split(text: string): { tokens: string[]; gaps: string[]; starts: number[] } {
  const tokens = sourceTokens(text);
  const gaps: string[] = [];
  const starts: number[] = [];
  let at = 0;
  for (const token of tokens) {
    gaps.push(text.slice(at, token.offset));
    starts.push(at);
    at = token.offset + token.image.length;
  }
  gaps.push(text.slice(at));
  starts.push(at);
  return { tokens: tokens.map((t) => t.image), gaps, starts };
}

function join(tokens: readonly string[], gaps: readonly string[]): string {
  return tokens.map((token, i) => gaps[i]! + token).join('') + gaps[tokens.length]!;
}

/**
 * Replaces every run of spaces and tabs with `spaces[k]` (cycling), and puts spaces between
 * some glued tokens, except on lines that hold a comment: a trailing comment keeps its column
 * relative to its line by design, so its line is left as it is.
 */
function respaceWithinLines(text: string, spaces: readonly string[], glue: readonly boolean[]): string {
  const { tokens, gaps, starts } = split(text);
  const lineOf = (offset: number) => text.slice(0, offset).split(/\r\n|\r|\n/).length - 1;
  const commentLines = new Set<number>();
  gaps.forEach((gap, i) => {
    for (const match of gap.matchAll(/\/\/[^\r\n]*|\/\*[\s\S]*?\*\//g)) {
      for (let line = lineOf(starts[i]! + match.index); line <= lineOf(starts[i]! + match.index + match[0].length); line++) commentLines.add(line);
    }
  });
  // An invariant's check is kept as written (the compiler records its text): not respaced.
  const checks = invariantChecks(text);
  const keep = (offset: number) => commentLines.has(lineOf(offset)) || checks.some(([from, to]) => offset >= from && offset < to);
  let k = 0;
  const next = () => spaces[k++ % spaces.length]!;
  const respaced = gaps.map((gap, i) => {
    if (gap === '') return i > 0 && i < tokens.length && glue[i % glue.length] && !keep(starts[i]!) ? next() : '';
    return gap.replace(/[ \t]+/g, (run: string, offset: number) => (keep(starts[i]! + offset) ? run : next()));
  });
  return join(tokens, respaced);
}

/** The text ranges of the invariant checks of a file: from after `:` to the invariant's end. */
function invariantChecks(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const declaration of parseSource('file.adec', text).file.declarations) {
    if (declaration.kind !== 'SkillDecl') continue;
    for (const member of declaration.members) {
      if (member.kind === 'InvariantDecl') ranges.push([member.description.span.endOffset + 1, member.span.endOffset]);
    }
  }
  return ranges;
}

/** Replaces every gap without a comment with one of `choices` (cycling). */
function rebreak(text: string, choices: readonly string[]): string {
  const { tokens, gaps } = split(text);
  let k = 0;
  return join(
    tokens,
    gaps.map((gap, i) => {
      if (i === 0 || i === tokens.length || gap.includes('/')) return gap;
      if (gap === '') return '';
      return choices[k++ % choices.length]!;
    }),
  );
}

/** Inserts comments into gaps: `/* cN *\/` inline, or `// cN` followed by a line break. */
function withComments(text: string, where: readonly number[], kinds: readonly boolean[]): string {
  const { tokens, gaps } = split(text);
  const chosen = new Set(where.map((w) => w % gaps.length));
  return join(
    tokens,
    gaps.map((gap, i) => {
      if (!chosen.has(i)) return gap;
      const comment = kinds[i % kinds.length] ? `// c${i}\n` : `/* c${i} */`;
      return ` ${comment} ${gap}`;
    }),
  );
}

describe('adec fmt: the contract on generated worlds', () => {
  it('well-formed-ish generated worlds (world-generator.ts)', () => {
    fc.assert(fc.property(generatedWorld(), (world) => void expectFormatContract(world)), settings(150));
  });

  it('worlds with integers near 2^53 (out of range: refused, ADEC1008)', () => {
    fc.assert(fc.property(edgeNumberWorld(), (world) => void expectFormatContract(world)), settings(30));
  });

  it('valid adjudication worlds (valid-world-generator.ts): never refused', () => {
    fc.assert(fc.property(validWorld().map(oneFile('valid')), (world) => {
      expect(expectFormatContract(world).refused).toBe(0);
    }), settings(100));
  });

  it('valid selection worlds (valid-selection-world-generator.ts): never refused', () => {
    fc.assert(
      fc.property(validSelectionWorld().map(oneFile('selection')), (world) => {
      expect(expectFormatContract(world).refused).toBe(0);
    }),
      settings(100),
    );
  });

  it('random edits of the example worlds (mostly refused, never damaged)', () => {
    fc.assert(fc.property(mutatedWorld(examples), (world) => void expectFormatContract(world)), settings(100));
  });

  it('token soups', () => {
    fc.assert(fc.property(tokenSoup(), (world) => void expectFormatContract(world)), settings(300));
  });
});

describe('adec fmt: layout-independent', () => {
  it('spaces and tabs within lines do not change the result', () => {
    fc.assert(
      fc.property(
        validFile,
        fc.array(fc.constantFrom(' ', '  ', '\t', '    ', ' \t '), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        (file, spaces, glue) => {
          const canonical = formatSource(file.path, file.text);
          const respaced = respaceWithinLines(file.text, spaces, glue);
          const result = formatSource(file.path, respaced);
          expect(canonical.ok && result.ok).toBe(true);
          if (canonical.ok && result.ok) expect(result.text).toBe(canonical.text);
        },
      ),
      settings(200),
    );
  });

  it('line breaks anywhere: the contract holds', () => {
    fc.assert(
      fc.property(validFile, fc.array(fc.constantFrom(' ', '\n', '\n\n', '\n      ', '  \n\n\n  ', ' '), { minLength: 1, maxLength: 10 }), (file, choices) => {
        const world = oneFile('rebroken')(rebreak(file.text, choices));
        expect(expectFormatContract(world, { codes: false }).refused).toBe(0);
      }),
      settings(200),
    );
  });

  it('comments inserted between any two tokens are kept, in order', () => {
    fc.assert(
      fc.property(validFile, fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), (file, where, kinds) => {
        const text = withComments(file.text, where, kinds);
        const world = oneFile('commented')(text);
        const outcome = expectFormatContract(world, { codes: false });
        expect(outcome.refused).toBe(0);
        expect(commentTexts(outcome.formatted.files[0]!.text)).toEqual(commentTexts(text));
      }),
      settings(200),
    );
  });
});
