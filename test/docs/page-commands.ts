/**
 * A page whose commands are a test (docs/tutorial.md, the worked example of
 * docs/language-guide.md): its commands run in an empty folder, in page order, with the built
 * CLI as `adec` on PATH. Before each `sh` block, the files the page has the reader write so far
 * (`file=` blocks) are written; each `sh` block must exit as the page says (0, or its `exit=N`)
 * and print what the `output` block after it shows, `…` standing for any text within a line
 * and, alone on a line, for any lines. At the end every `excerpt=` block is part of its file.
 *
 * It runs `packages/cli/bin/adec.js`, which loads the built `dist/` (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoPath } from '../support/repo.js';
import { where, type FencedBlock } from './markdown-blocks.js';

/** The expected output as a pattern: `…` is any text within a line, or any lines alone on one. */
export function outputPattern(expected: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = expected.replace(/\n$/, '').split('\n');
  const body = lines.map((line) => (line === '…' ? '(?:[^\\n]*\\n)*?' : `${line.split('…').map(escape).join('[^\\n]*')}\\n`));
  return new RegExp(`^${body.join('')}$`);
}

/** Each `sh` block with the files written before it and the `output` block that follows it. */
export interface PageStep {
  readonly command: FencedBlock;
  readonly files: readonly FencedBlock[];
  readonly output?: FencedBlock;
}

export function pageSteps(blocks: readonly FencedBlock[]): PageStep[] {
  const found: PageStep[] = [];
  let files: FencedBlock[] = [];
  for (const block of blocks) {
    if (block.attributes.has('file')) files.push(block);
    else if (block.language === 'sh') {
      found.push({ command: block, files });
      files = [];
    } else if (block.language === 'output') {
      const last = found.at(-1);
      if (last === undefined || last.output !== undefined) throw new Error(`${where(block)}: an output block must follow an sh block`);
      found[found.length - 1] = { ...last, output: block };
    }
  }
  if (files.length > 0) throw new Error(`${where(files[0]!)}: a file written after the last command`);
  return found;
}

export interface PageRun {
  /** The folder the commands run in: what the reader's folder holds at the end. */
  readonly folder: string;
}

/**
 * Registers one test per step of `blocks`, in order, and one for the excerpts. `unset` names
 * environment variables the reader is assumed not to have (a configured model, say).
 */
export function runPageCommands(blocks: readonly FencedBlock[], { unset = [] }: { readonly unset?: readonly string[] } = {}): PageRun {
  const folder = mkdtempSync(join(tmpdir(), 'adec-page-'));
  const bin = mkdtempSync(join(tmpdir(), 'adec-page-bin-'));
  writeFileSync(join(bin, 'adec'), `#!/bin/sh\nexec "${process.execPath}" "${repoPath('packages/cli/bin/adec.js')}" "$@"\n`);
  chmodSync(join(bin, 'adec'), 0o755);
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  });
  const inherited = Object.entries(process.env).filter(([name]) => !unset.includes(name));
  const env: NodeJS.ProcessEnv = { ...Object.fromEntries(inherited), PATH: `${bin}:${process.env['PATH'] ?? ''}`, CI: 'true' };

  for (const step of pageSteps(blocks)) {
    const expectedExit = Number(step.command.attributes.get('exit') ?? '0');
    it(`${where(step.command)}: ${step.command.text.trim().split('\n').join('; ')}`, () => {
      for (const file of step.files) {
        const path = join(folder, file.attributes.get('file')!);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.text);
      }
      const run = spawnSync('bash', ['-e', '-c', step.command.text], { cwd: folder, encoding: 'utf8', env, timeout: 120_000 });
      const printed = `${run.stdout}${run.stderr}`;
      expect(run.status, `${where(step.command)} printed:\n${printed}`).toBe(expectedExit);
      if (step.output !== undefined) expect(printed, `the output shown at ${where(step.output)}`).toMatch(outputPattern(step.output.text));
    }, 120_000);
  }

  it('shows excerpts that are part of the files as the page leaves them', () => {
    for (const block of blocks.filter((b) => b.attributes.has('excerpt'))) {
      const file = block.attributes.get('excerpt')!;
      expect(readFileSync(join(folder, file), 'utf8'), `${where(block)} is not part of ${file}`).toContain(block.text);
    }
  });
  return { folder };
}
