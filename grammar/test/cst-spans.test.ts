/**
 * cst-to-ast.ts computes node extents with shortcuts that rely on one property of the CST:
 * children are added in source order (tokens are consumed in order, error recovery only skips
 * forward or inserts tokens without a position). This test checks those shortcuts against the
 * exhaustive walks they replaced, on every CST node of the examples, the diagnostics fixtures
 * and seeded random edits of them (which exercise every kind of recovery).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CstNode, IToken } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { firstOffset, lastEnd } from '../src/cst-to-ast.js';
import { lex } from '../src/lexer.js';
import { LineMap } from '../src/line-map.js';
import { worldParser } from '../src/parse-source.js';

type Child = CstNode | IToken;
const repo = new URL('../../', import.meta.url).pathname;

function adecFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return adecFiles(path);
      return path.endsWith('.adec') ? [path] : [];
    });
}

const isReal = (child: Child): child is IToken =>
  'image' in child && !child.isInsertedInRecovery && !Number.isNaN(child.startOffset);

/** The walks as first written: every key, the first (last) child with a position. */
function referenceFirst(node: CstNode): number | undefined {
  let first: number | undefined;
  for (const children of Object.values(node.children)) {
    for (const child of children as Child[]) {
      const offset = 'image' in child ? (isReal(child) ? child.startOffset : undefined) : referenceFirst(child);
      if (offset === undefined) continue;
      if (first === undefined || offset < first) first = offset;
      break;
    }
  }
  return first;
}

function referenceLast(node: CstNode): number | undefined {
  let last: number | undefined;
  for (const children of Object.values(node.children)) {
    const list = children as Child[];
    for (let i = list.length - 1; i >= 0; i--) {
      const child = list[i]!;
      const end = 'image' in child ? (isReal(child) ? child.startOffset + child.image.length : undefined) : referenceLast(child);
      if (end === undefined) continue;
      if (last === undefined || end > last) last = end;
      break;
    }
  }
  return last;
}

/** Deterministic edits: delete, duplicate or insert a piece, truncate. */
function* mutations(sources: string[], count: number): Generator<string> {
  let seed = 20240611;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % Math.max(n, 1);
  };
  const pieces = ['{', '}', '(', ')', '[', ']', '"', ':', ',', '.', '=', 'when', 'rule r {', 'and', 'not', 'if', 'IS', '-', '..', '?', '|', '\n'];
  for (let k = 0; k < count; k++) {
    let text = sources[random(sources.length)]!;
    for (let edits = 1 + random(3); edits > 0; edits--) {
      const at = random(text.length + 1);
      const length = 1 + random(12);
      switch (random(4)) {
        case 0:
          text = text.slice(0, at) + text.slice(at + length);
          break;
        case 1:
          text = text.slice(0, at) + text.slice(at, at + length) + text.slice(at);
          break;
        case 2:
          text = `${text.slice(0, at)} ${pieces[random(pieces.length)]} ${text.slice(at)}`;
          break;
        default:
          text = text.slice(0, at);
      }
    }
    yield text;
  }
}

describe('CST node extents', () => {
  it('match the exhaustive walks on every node, including after error recovery', () => {
    const sources = [...adecFiles(join(repo, 'examples')), ...adecFiles(join(repo, 'test/diagnostics/fixtures'))].map((path) =>
      readFileSync(path, 'utf8'),
    );
    expect(sources.length).toBeGreaterThan(50);
    const parser = worldParser();
    let nodes = 0;
    let recovered = 0;
    for (const text of [...sources, ...mutations(sources, 1500)]) {
      parser.input = lex(text, new LineMap('test.adec', text)).tokens;
      const cst = parser.sourceFile();
      if (parser.errors.length > 0) recovered++;
      const visit = (node: CstNode): void => {
        nodes++;
        if (firstOffset(node) !== referenceFirst(node) || lastEnd(node) !== referenceLast(node)) {
          expect({ node: node.name, text, first: firstOffset(node), last: lastEnd(node) }).toEqual({
            node: node.name,
            text,
            first: referenceFirst(node),
            last: referenceLast(node),
          });
        }
        for (const children of Object.values(node.children)) {
          for (const child of children as Child[]) if (!('image' in child)) visit(child);
        }
      };
      visit(cst);
    }
    expect(nodes).toBeGreaterThan(20_000);
    expect(recovered).toBeGreaterThan(1000);
  });
});
