/**
 * The generated module is laid out by the generator itself (no formatter pass at build time,
 * which cost two thirds of generation). This pins that layout to what TypeScript's formatter,
 * with the fixed settings, would produce: running it changes nothing.
 */
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { checkSources, isWorldLoadError, loadWorld } from '../../src/index.js';
import { GENERATED_FORMAT } from './format-settings.js';
import { generateModule } from '../../src/generate/index.js';
import { BENEFITS_WORLD, PROVENANCE } from './fixtures.js';
import { syntheticWorld } from './synthetic.js';
import { TEMPLATE_VALUES_WORLD } from './template-values-world.js';

function formatted(source: string): string {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('module.ts', source);
  file.formatText(GENERATED_FORMAT);
  return file.getFullText();
}

describe('generated modules are already formatted', () => {
  it.each([
    ['the LANGUAGE.md world', () => generateModule(BENEFITS_WORLD, PROVENANCE)],
    ['a 50-rule synthetic world', () => generateModule(syntheticWorld(50), PROVENANCE)],
  ])('%s', (_, generate) => {
    const source = generate();
    expect(formatted(source)).toBe(source);
  });

  it('a world interpolating timestamps and durations (date helpers)', () => {
    const { world } = checkSources({ root: 'w', files: [{ path: 'w/main.adec', text: TEMPLATE_VALUES_WORLD }] });
    const source = generateModule(world!, PROVENANCE);
    expect(source).toContain('function formatTimestamp(');
    expect(formatted(source)).toBe(source);
  });

  it.each(['examples/benefits', 'examples/fitness'])('%s', async (dir) => {
    const sources = await loadWorld(dir, new URL('../../../..', import.meta.url).pathname);
    if (isWorldLoadError(sources)) throw new Error(sources.problem);
    const { world } = checkSources(sources);
    if (world === undefined) throw new Error(`${dir} does not check`);
    const source = generateModule(world, PROVENANCE);
    expect(formatted(source)).toBe(source);
  });
});
