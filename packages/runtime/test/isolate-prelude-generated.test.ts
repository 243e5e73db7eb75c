import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { generateIsolateCode } from '../../../scripts/generate-isolate-code.mjs';

const GENERATED = 'packages/runtime/src/sandbox/isolate-prelude.generated.ts';
const root = new URL('../../../', import.meta.url);

test('isolate-prelude.generated.ts is what its sources in sandbox/isolate/ bundle to', async () => {
  const file = (await generateIsolateCode()).find((generated) => generated.path === GENERATED);
  expect(file, `the generator no longer writes ${GENERATED}`).toBeDefined();
  expect(readFileSync(new URL(GENERATED, root), 'utf8'), `${GENERATED} is out of date with packages/runtime/src/sandbox/isolate/: run \`npm run generate:isolate\``).toBe(file!.text);
});
