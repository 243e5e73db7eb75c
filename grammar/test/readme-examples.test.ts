// The examples of grammar/README.md are part of the reference: each must parse cleanly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from './helpers.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```adec\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Declarations as written; clause fragments inside the action they belong to. */
function asFile(block: string): string | undefined {
  if (block.includes('…')) return undefined;
  if (/^(world|context|action|skill|scenario|test)\b/.test(block)) return block;
  if (/^(rule|on|aggregate)\b/.test(block)) return `action example {\n${block}\n}`;
  return undefined;
}

describe('README examples', () => {
  const files = blocks.map(asFile).filter((file): file is string => file !== undefined);

  it('has examples to check', () => expect(files.length).toBeGreaterThanOrEqual(8));

  it.each(files.map((file) => [file.split('\n')[0], file]))('%s', (_, file) => {
    expect(parse(file).diagnostics).toEqual([]);
  });

  it('parses the types and SEC rows of its tables', () => {
    const text = `context {
  supplied a: int(-10..10)
  supplied b: string(1..)
  supplied c: list<{ id: string }>
}
skill s {
  invariant "I" "d": IF user_state.fatigue IS NULL THEN payload.rationale NOT CONTAINS 'recovery'
  invariant "J" "d": payload.tone EQUALS "calm" OR payload.tone EQUALS "supportive"
}`;
    expect(parse(text).diagnostics).toEqual([]);
  });
});
