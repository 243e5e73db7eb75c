import { readFileSync } from 'node:fs';
import { syntaxDiagramsHtml } from '@adec/grammar';
import { describe, expect, it } from 'vitest';

const committed = (path: string) => readFileSync(new URL(`../diagrams/${path}`, import.meta.url), 'utf8');

describe('syntax diagrams', () => {
  it('grammar/diagrams/index.html matches the grammar', () => {
    const upToDate = committed('index.html') === syntaxDiagramsHtml('./');
    expect(upToDate, 'grammar/diagrams/index.html is out of date: run `npm run diagrams`').toBe(true);
  });

  it('loads its scripts and stylesheet from local copies, not a CDN', () => {
    const html = committed('index.html');
    expect(html).not.toMatch(/https?:/);
    for (const resource of html.matchAll(/(?:src|href)='\.\/([^']+)'/g)) {
      expect(() => committed(resource[1]!), `missing grammar/diagrams/${resource[1]}: run \`npm run diagrams\``).not.toThrow();
    }
  });
});
