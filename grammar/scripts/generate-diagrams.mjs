// Writes grammar/diagrams/index.html: railroad diagrams of the world language, drawn from the
// parser's own grammar (grammar/src/parser.ts), so they cannot disagree with it.
// Run through `npm run diagrams` (builds first). The page loads chevrotain's diagram scripts
// and stylesheet from copies beside it, so it works offline; they are refreshed here too.
// grammar/test/diagrams.test.ts fails when the committed page is out of date.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntaxDiagramsHtml } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'diagrams');
const chevrotainDiagrams = join(packageRoot(fileURLToPath(import.meta.resolve('chevrotain'))), 'diagrams');

/** chevrotain exports no `package.json`; walk up from its entry point instead. */
function packageRoot(entry) {
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const resources = [
  'diagrams.css',
  'vendor/railroad-diagrams.js',
  'src/diagrams_builder.js',
  'src/diagrams_behavior.js',
  'src/main.js',
];
for (const resource of resources) {
  mkdirSync(dirname(join(out, resource)), { recursive: true });
  copyFileSync(join(chevrotainDiagrams, resource), join(out, resource));
}

writeFileSync(join(out, 'index.html'), syntaxDiagramsHtml('./'));
console.log(`wrote ${join(out, 'index.html')}`);
