/**
 * Each skill's contract document is in manifest.json, so the signature over the manifest covers
 * it (docs/spec/skill-contract.md §7): a host or an auditor reading a skill's contract from a
 * verified bundle reads what the signer signed. Generated from the real documents of
 * examples/learning-coach: every value of every document changed, every field removed, every
 * list shortened, and each such manifest must fail verification; the untouched one verifies.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatSignatureFile, signManifest, trustConfig, verifyBundle, type BundleFiles, type TrustConfig } from '@adec/runtime';
import { buildFixture } from '../support/runtime.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

let files: BundleFiles;
let trust: TrustConfig;
let manifest: { skill_contracts: Json[] } & Record<string, Json>;

beforeAll(async () => {
  const artifacts = await buildFixture('examples/learning-coach');
  const signer = generateKeyPairSync('ed25519');
  trust = trustConfig({ signingKeys: [signer.publicKey], approvalKeys: [], requireApproval: false });
  const manifestBytes = Buffer.from(artifacts.manifestJson);
  files = {
    manifest: manifestBytes,
    bundle: Buffer.from(artifacts.bundle),
    signature: Buffer.from(formatSignatureFile(signManifest(manifestBytes, signer.privateKey))),
  };
  manifest = JSON.parse(artifacts.manifestJson) as typeof manifest;
});

/** Every way to change `value` by one step: each leaf changed, each field removed, each list shortened. */
function* changes(value: Json, path: string): Generator<[string, (root: Json) => void]> {
  if (Array.isArray(value)) {
    if (value.length > 0) yield [`${path}: one item fewer`, (root) => (at(root, path) as Json[]).pop()];
    for (const [index, item] of value.entries()) yield* changes(item, `${path}/${index}`);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      yield [`${path}/${key}: removed`, (root) => Reflect.deleteProperty(at(root, path) as Record<string, Json>, key)];
      yield* changes(child, `${path}/${key}`);
    }
  } else {
    yield [`${path}: changed`, (root) => set(root, path, changed(value))];
  }
}

function changed(value: null | boolean | number | string): Json {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return 'x';
}

function at(root: Json, path: string): Json {
  return path.split('/').slice(1).reduce<Json>((node, key) => (node as Record<string, Json>)[key]!, root);
}

function set(root: Json, path: string, value: Json): void {
  const keys = path.split('/').slice(1);
  (at(root, `/${keys.slice(0, -1).join('/')}`.replace(/\/$/, '')) as Record<string, Json>)[keys.at(-1)!] = value;
}

describe('the skill contract documents of a signed manifest', () => {
  test('verify untouched', () => {
    expect(manifest.skill_contracts.length).toBe(3);
    expect(verifyBundle(files, trust)).toMatchObject({ ok: true });
    // The variants are written as the compiler writes manifests: unchanged, the same bytes.
    expect(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`).equals(Buffer.from(files.manifest))).toBe(true);
  });

  test.each([0, 1, 2])('document %i changed in any one place fails verification', (index) => {
    const variants = [...changes(manifest.skill_contracts[index]!, `/skill_contracts/${index}`)];
    expect(variants.length).toBeGreaterThan(300);
    const verified: string[] = [];
    for (const [name, change] of variants) {
      const tampered = structuredClone(manifest) as Json;
      change(tampered);
      const result = verifyBundle({ ...files, manifest: Buffer.from(`${JSON.stringify(tampered, null, 2)}\n`) }, trust);
      if (result.ok || result.failure.code !== 'SIGNATURE_INVALID') verified.push(name);
    }
    expect(verified).toEqual([]);
  });
});
