/**
 * docs/tutorial.md cannot rot: its commands run in an empty folder, in page order, and print
 * what the page shows (page-commands.ts says how). Besides, the page walks the whole path the
 * brief promises, in order.
 */
import { describe, expect, it } from 'vitest';
import { pageBlocks } from './markdown-blocks.js';
import { pageSteps, runPageCommands } from './page-commands.js';

const PAGE = 'docs/tutorial.md';
/** The path the brief promises: init, edit, check, test, explain, build, keys, sign, approve, verify, decide. */
const JOURNEY = ['init', 'check', 'test', 'explain', 'build', 'keygen', 'sign', 'approve', 'verify', 'eval'];

const blocks = pageBlocks(PAGE);

describe('docs/tutorial.md', () => {
  it('walks the whole path from adec init to a decision', () => {
    const commands = pageSteps(blocks).flatMap((step) => [...step.command.text.matchAll(/^adec (\w+)/gm)].map((m) => m[1]!));
    const order = JOURNEY.map((name) => commands.indexOf(name));
    expect(order.every((index) => index >= 0), `commands: ${commands.join(', ')}`).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  runPageCommands(blocks);
});
