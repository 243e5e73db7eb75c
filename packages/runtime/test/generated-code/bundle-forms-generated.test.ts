import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { bundleModule } from '../../../compiler/src/bundle/bundle-module.js';
import { HELPER_NAMES, helperSources } from '../../../compiler/src/generate/runtime-helpers.js';
import { bundleFormsFile } from '../../../../scripts/generate-bundle-forms.mjs';

const root = new URL('../../../../', import.meta.url);

test('bundle-forms.generated.ts holds the helper library and esbuild prelude as the compiler bundles them', async () => {
  const file = await bundleFormsFile({ helperNames: HELPER_NAMES, helperSources, bundleModule });
  expect(readFileSync(new URL(file.path, root), 'utf8'), `${file.path} is out of date: run \`npm run build && node scripts/generate-bundle-forms.mjs\``).toBe(file.text);
});
