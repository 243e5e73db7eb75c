/**
 * Every `adec` code block of the pages under docs/ is real. A block is a whole world unless
 * its info string says otherwise (markdown-blocks.ts lists the forms):
 *
 * - a whole world checks with no diagnostics, and when it holds tests, `adec test` passes them;
 * - `reports=ADECnnnn,…` is a world `adec check` reports each of those codes for;
 * - `fragment` is part of a world, shown for reading, and not checked alone;
 * - `file=` and `excerpt=` belong to a page that runs (the tutorial, the language guide's worked
 *   example), whose test writes them into a world and runs every command of the page against it.
 */
import { checkSources } from '@adec/compiler';
import { renderDiagnostics } from '@adec/diagnostics';
import { describe, expect, it } from 'vitest';
import { runCli, tempWorkspace } from '../../packages/cli/test/run-cli.js';
import { docsPages, pageBlocks, RUN_PAGES, where, type FencedBlock } from './markdown-blocks.js';

const KNOWN_FLAGS = new Set(['fragment']);
const KNOWN_ATTRIBUTES = new Set(['reports', 'file', 'excerpt']);

const adecBlocks = docsPages().flatMap((page) => pageBlocks(page).filter((block) => block.language === 'adec'));

function check(block: FencedBlock) {
  const path = `${block.page.replace(/\.md$/, '')}-line-${block.line}.adec`;
  const result = checkSources({ root: block.page, files: [{ path, text: block.text }] });
  return { result, rendered: renderDiagnostics(result.diagnostics, () => block.text) };
}

function kindOf(block: FencedBlock): 'world' | 'reports' | 'fragment' | 'run' {
  if (block.flags.has('fragment')) return 'fragment';
  if (block.attributes.has('file') || block.attributes.has('excerpt')) return 'run';
  if (block.attributes.has('reports')) return 'reports';
  return 'world';
}

describe('adec blocks in docs/', () => {
  it('there are whole worlds among them, so the extraction works', () => {
    expect(adecBlocks.filter((block) => kindOf(block) === 'world').length).toBeGreaterThanOrEqual(5);
  });

  it('use only the known info-string words', () => {
    for (const block of adecBlocks) {
      for (const flag of block.flags) expect(KNOWN_FLAGS.has(flag), `${where(block)}: unknown word \`${flag}\``).toBe(true);
      for (const key of block.attributes.keys()) expect(KNOWN_ATTRIBUTES.has(key), `${where(block)}: unknown \`${key}=\``).toBe(true);
    }
  });

  it('write files only in the pages that run, whose tests run them', () => {
    const elsewhere = adecBlocks.filter((block) => kindOf(block) === 'run' && !RUN_PAGES.includes(block.page)).map(where);
    expect(elsewhere).toEqual([]);
  });

  for (const block of adecBlocks) {
    const kind = kindOf(block);
    if (kind === 'world') {
      it(`${where(block)} is a world that checks with no diagnostics, and whose tests pass`, async () => {
        const { result, rendered } = check(block);
        expect(rendered, where(block)).toBe('');
        if ((result.world?.tests.length ?? 0) === 0) return;
        const cwd = tempWorkspace({ 'world/world.adec': block.text });
        const run = await runCli(['test', 'world'], cwd);
        expect(run.code, `${where(block)}: adec test\n${run.stdout}${run.stderr}`).toBe(0);
      });
    } else if (kind === 'reports') {
      const codes = block.attributes.get('reports')!.split(',');
      it(`${where(block)} is reported as ${codes.join(', ')}`, () => {
        const reported = check(block).result.diagnostics.map((d) => d.code);
        for (const code of codes) expect(reported, where(block)).toContain(code);
      });
    }
  }
});
