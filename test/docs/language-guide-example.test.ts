/**
 * The worked example of docs/language-guide.md (section 13, scenarios and skills) cannot rot:
 * its commands run in an empty folder and print what the page shows (page-commands.ts says
 * how), with no model configured, as the page assumes.
 */
import { describe, expect, it } from 'vitest';
import { pageBlocks } from './markdown-blocks.js';
import { runPageCommands } from './page-commands.js';

const PAGE = 'docs/language-guide.md';
const WORLD = 'coach';
/** The model settings of the cloud executor: the page's answers are those without a model. */
const MODEL_SETTINGS = ['ADEC_LLM_URL', 'ADEC_LLM_MODEL', 'ADEC_LLM_API_KEY'];

describe('docs/language-guide.md, the worked example', () => {
  const blocks = pageBlocks(PAGE);

  it('builds a scenario, skills and a selection from an empty folder', () => {
    const commands = blocks.filter((block) => block.language === 'sh').map((block) => block.text.trim().split(' ')[1]);
    expect(commands).toEqual(expect.arrayContaining(['check', 'test', 'build', 'select']));
    expect(blocks.filter((block) => block.attributes.get('file')?.startsWith(`${WORLD}/skills/`)).length).toBeGreaterThanOrEqual(2);
  });

  runPageCommands(blocks, { unset: MODEL_SETTINGS });
});
