/**
 * How the CLI names a bundle: `adec build` from the manifest it wrote, the trust commands (sign,
 * approve, verify, deploy) from the manifest they read, both as a world identity of @adec/abi,
 * so the two name one bundle the same way; a manifest without a usable world (an ABI 1 one
 * without its world id) is named by its directory.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundleLabel } from '../src/bundle-command.js';
import { summarizeBuild } from '../src/commands/build.js';
import { repoPath } from '../../../test/support/repo.js';
import { buildFixture } from '../../../test/support/runtime.js';

describe('bundleLabel', () => {
  it('names a built bundle as `adec build` reported it', async () => {
    const { manifest } = await buildFixture('examples/benefits');
    const label = bundleLabel(JSON.parse(JSON.stringify(manifest)) as Record<string, unknown>, 'out');
    expect(label).toBe('acme/hr.benefits@1.4.0 (world benefits)');
    expect(summarizeBuild(manifest, 'out').split('\n')[0]).toBe(`built ${label} → out`);
  });

  it('names an ABI 1 bundle by its world when its manifest names one', () => {
    const manifest = JSON.parse(readFileSync(repoPath('packages/runtime/test/fixtures/legacy-abi1/manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(bundleLabel(manifest, 'legacy')).toBe('acme/payments.refunds@0.9.2 (world refunds)');
  });

  it('names the directory when the world is missing, lacks its id, or holds a part that is not text', () => {
    const world = { org: 'acme', domain: 'hr.benefits', world: 'benefits', version: '1.4.0' };
    const { world: _id, ...withoutId } = world;
    for (const manifest of [{}, { world: null }, { world: [world] }, { world: withoutId }, { world: { ...world, version: 1.4 } }]) {
      expect(bundleLabel(manifest, 'dist/b')).toBe('`dist/b`');
    }
  });
});
