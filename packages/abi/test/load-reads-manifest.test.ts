/**
 * loadModule reads the manifest it is given through readManifest: a module whose manifest is
 * malformed is refused with the JSON path of the problem, not loaded with a table it misreads.
 */
import { expect, it } from 'vitest';
import { loadModule } from '@adec/runtime';
import { buildFixture } from '../../../test/support/runtime.js';

it('refuses a module whose manifest is malformed, naming the path', async () => {
  const artifacts = await buildFixture('examples/benefits');
  const action = artifacts.manifest.actions['add_dependent']!;
  const manifest = { ...artifacts.manifest, actions: { add_dependent: { ...action, context_schema: { ...action.context_schema, required: 'documents' } } } };
  const result = await loadModule({ manifest, moduleHash: artifacts.manifest.module_hash, bundleSource: artifacts.bundle }, { isolation: 'in-process' });
  expect(result).toEqual({
    ok: false,
    code: 'MODULE_INVALID',
    message: 'the manifest is not one this runtime reads: `actions.add_dependent.context_schema.required` is string "documents", expected a list',
  });
});
