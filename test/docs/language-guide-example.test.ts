/**
 * The worked example of docs/language-guide.md (section 13, scenarios and skills) cannot rot:
 * its commands run in an empty folder and print what the page shows (page-commands.ts says
 * how), with no model configured, as the page assumes. The world the page leaves in `coach/`
 * is examples/learning-coach, file for file, so the example is the page's and not a copy that
 * drifts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../support/repo.js';
import { pageBlocks } from './markdown-blocks.js';
import { runPageCommands } from './page-commands.js';

const PAGE = 'docs/language-guide.md';
const WORLD = 'coach';
const EXAMPLE = 'examples/learning-coach';
/** What the example has that the page does not write: its README, and what the page builds. */
const NOT_FROM_THE_PAGE = new Set(['README.md']);
const BUILT = 'build';
/** The model settings of the cloud executor: the page's answers are those without a model. */
const MODEL_SETTINGS = ['ADEC_LLM_URL', 'ADEC_LLM_MODEL', 'ADEC_LLM_API_KEY'];

/** Every file below `dir`, as paths relative to it, sorted; `skip` names top-level entries to leave out. */
function filesBelow(dir: string, skip: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (path === dir && skip.has(entry.name)) continue;
      if (entry.isDirectory()) walk(full);
      else found.push(relative(dir, full));
    }
  };
  walk(dir);
  return found.sort();
}

describe('docs/language-guide.md, the worked example', () => {
  const blocks = pageBlocks(PAGE);

  it('builds a scenario, skills and a selection from an empty folder', () => {
    const commands = blocks.filter((block) => block.language === 'sh').map((block) => block.text.trim().split(' ')[1]);
    expect(commands).toEqual(expect.arrayContaining(['check', 'test', 'build', 'select']));
    expect(blocks.filter((block) => block.attributes.get('file')?.startsWith(`${WORLD}/skills/`)).length).toBeGreaterThanOrEqual(2);
  });

  const run = runPageCommands(blocks, { unset: MODEL_SETTINGS });

  it(`leaves the world of ${EXAMPLE}, file for file`, () => {
    const written = join(run.folder, WORLD);
    const example = repoPath(EXAMPLE);
    const pageFiles = filesBelow(written, new Set([BUILT]));
    expect(pageFiles).toEqual(filesBelow(example, NOT_FROM_THE_PAGE));
    for (const file of pageFiles) expect(readFileSync(join(example, file), 'utf8'), `${EXAMPLE}/${file}`).toBe(readFileSync(join(written, file), 'utf8'));
  });
});
