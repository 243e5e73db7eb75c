import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { generateIsolateCode } from '../../../scripts/generate-isolate-code.mjs';

const GENERATED = 'packages/engine/src/selection-extension.generated.ts';
const root = new URL('../../../', import.meta.url);

test('selection-extension.generated.ts is what its sources in src/isolate/ bundle to', async () => {
  const file = (await generateIsolateCode()).find((generated) => generated.path === GENERATED);
  expect(file, `the generator no longer writes ${GENERATED}`).toBeDefined();
  expect(readFileSync(new URL(GENERATED, root), 'utf8'), `${GENERATED} is out of date with packages/engine/src/isolate/: run \`npm run generate:isolate\``).toBe(file!.text);
});
