/**
 * Shared set-up for the signing and verification tests: real bundles built from the examples
 * into temporary directories, real Ed25519 key files, and small helpers to tamper with them.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorld, writeBuild, type WorldSources } from '@adec/compiler';
import { generateKey, keyFileNames, parseKey, type KeyFormat } from '@adec/runtime';
import type { KeyObject } from 'node:crypto';
import { loadWorldFromDir } from '../../../../test/support/repo.js';

/** A fresh temporary directory. */
export function tempDir(prefix = 'adec-trust-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Builds `sources` and writes the bundle directory `outDir` (manifest, bundle, module, types). */
export async function buildBundle(sources: WorldSources, outDir: string): Promise<string> {
  const result = await buildWorld(sources);
  if (result.artifacts === undefined) throw new Error(`world does not build: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  await writeBuild(result.artifacts, outDir);
  return outDir;
}

/** examples/benefits built into a temporary directory (build it once per test file). */
export function buildBenefits(outDir = join(tempDir(), 'benefits')): Promise<string> {
  return buildBundle(loadWorldFromDir('examples/benefits'), outDir);
}

/** A different bundle: a one-rule world with another module hash. */
export function buildOtherBundle(outDir = join(tempDir(), 'other')): Promise<string> {
  return buildBundle({ root: 'other', files: [{ path: 'other/main.adec', text: OTHER_WORLD }] }, outDir);
}

/** A copy of a built bundle directory under `parent`, to tamper with alone. */
export function copyBundle(pristine: string, parent = tempDir(), name = 'bundle'): string {
  const copy = join(parent, name);
  cpSync(pristine, copy, { recursive: true });
  return copy;
}

/** An Ed25519 key pair written as `adec keygen` writes it, with its parsed private key. */
export interface KeyPairFiles {
  readonly keyId: string;
  readonly privatePath: string;
  readonly publicPath: string;
  readonly privateFile: string;
  readonly publicFile: string;
  readonly privateKey: KeyObject;
}

export function writeKeyPair(dir: string, name: string, format: KeyFormat = 'jwk'): KeyPairFiles {
  const key = generateKey(format);
  const { privateFile, publicFile } = keyFileNames(name, format);
  writeFileSync(join(dir, privateFile), key.privateText, { mode: 0o600 });
  writeFileSync(join(dir, publicFile), key.publicText);
  const parsed = parseKey(key.privateText, privateFile);
  if (!parsed.ok) throw new Error(parsed.message);
  return { keyId: key.keyId, privatePath: join(dir, privateFile), publicPath: join(dir, publicFile), privateFile, publicFile, privateKey: parsed.key };
}

/** Writes a trust file and returns its path. */
export function writeTrustFile(path: string, trust: Readonly<Record<string, unknown>>): string {
  writeFileSync(path, `${JSON.stringify(trust, null, 2)}\n`);
  return path;
}

/** Flips the lowest bit of the byte at `index` (negative: from the end) of a file. */
export function flipByte(path: string, index: number): void {
  const bytes = readFileSync(path);
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(path, bytes);
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

const OTHER_WORLD = `world {
  org     "acme"
  domain  "hr.other"
  version "1.0.0"
}

context {
  supplied dependent_age: int
}

action add_dependent {
  rule over_age {
    outcome  RED
    severity t1
    when     dependent_age >= 26
    reason   "Too old at {dependent_age}"
  }
}
`;
