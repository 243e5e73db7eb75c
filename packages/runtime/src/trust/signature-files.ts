import { parseApprovalTime } from './approval-times.js';
import { KEY_ID_PATTERN } from './key-id.js';
import type { ApprovalCompiler, ApprovalFormat, ApprovalStatement } from './messages.js';
import { bundleWorld, type BundleWorld } from './module-binding.js';
import { MODULE_HASH_PATTERN } from './module-hash.js';
import { decodeUtf8Exactly } from './utf8.js';
import { fieldText } from './field-text.js';

/**
 * The two files signing adds to a bundle, and their strict parsing. Only the fields below are
 * read; anything else (an `"alg"`, say) is ignored, because the algorithm is fixed by the
 * trusted key and never taken from the file.
 */

/** signature.json: an Ed25519 signature over `manifestMessage(manifest.json)`. */
export interface SignatureFile {
  readonly key_id: string;
  /** Standard base64 (with padding) of the 64 signature bytes. */
  readonly signature: string;
}

/**
 * The `format` approval.json is written in. v2 (before `rebuilt_by`) is still read; the first
 * format (no `format` field) is refused: APPROVAL_OUTDATED.
 */
export const APPROVAL_FORMAT = 'adec.approval.v3';
const READ_FORMATS: readonly ApprovalFormat[] = ['adec.approval.v2', APPROVAL_FORMAT];

/**
 * approval.json: an operator key's Ed25519 signature over `approvalMessage(statement)`: this
 * module hash, for this world version, issued at, valid until (`YYYY-MM-DDTHH:MM:SSZ`), rebuilt
 * from its sources by this compiler (or `null`: approved without a rebuild).
 */
export interface ApprovalFile {
  readonly format: typeof APPROVAL_FORMAT;
  readonly key_id: string;
  readonly module_hash: string;
  readonly world: BundleWorld;
  readonly issued_at: string;
  readonly expires_at: string;
  readonly rebuilt_by: ApprovalCompiler | null;
  readonly signature: string;
}

export interface ParsedSignature {
  readonly keyId: string;
  readonly signature: Buffer;
}

export interface ParsedApproval extends ParsedSignature {
  readonly statement: ApprovalStatement;
  /** The statement's times in milliseconds since the epoch. */
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
}

/** A parsed file, or the problem with it as the end of a sentence starting with the file name. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** An approval.json of the first format: an object without `format`. */
export const OUTDATED = { ok: false, problem: 'has no `format`', outdated: true } as const;

/** The length of an Ed25519 signature (RFC 8032). */
const SIGNATURE_BYTES = 64;

export function parseSignatureFile(bytes: Uint8Array): Parsed<ParsedSignature> {
  const fields = parseObject(bytes);
  if (!fields.ok) return fields;
  const keyId = keyIdField(fields.value);
  if (!keyId.ok) return keyId;
  const signature = signatureField(fields.value);
  if (!signature.ok) return signature;
  return { ok: true, value: { keyId: keyId.value, signature: signature.value } };
}

export function parseApprovalFile(bytes: Uint8Array): Parsed<ParsedApproval> | typeof OUTDATED {
  const fields = parseObject(bytes);
  if (!fields.ok) return fields;
  const format = fields.value['format'];
  if (format === undefined) return OUTDATED;
  const known = READ_FORMATS.find((candidate) => candidate === format);
  if (known === undefined) return { ok: false, problem: `has \`format\` \`${truncate(fieldText(format))}\`, expected \`${APPROVAL_FORMAT}\`` };
  const keyId = keyIdField(fields.value);
  if (!keyId.ok) return keyId;
  const moduleHash = fields.value['module_hash'];
  if (typeof moduleHash !== 'string') return { ok: false, problem: 'has no `module_hash` string' };
  if (!MODULE_HASH_PATTERN.test(moduleHash)) {
    return { ok: false, problem: `has \`module_hash\` \`${truncate(moduleHash)}\`, expected "sha256:" and 64 lowercase hex digits` };
  }
  const world = worldField(fields.value);
  if (!world.ok) return world;
  const issuedAt = timeField(fields.value, 'issued_at');
  if (!issuedAt.ok) return issuedAt;
  const expiresAt = timeField(fields.value, 'expires_at');
  if (!expiresAt.ok) return expiresAt;
  if (expiresAt.value.ms <= issuedAt.value.ms) return { ok: false, problem: '`expires_at` is not after `issued_at`' };
  const rebuiltBy = known === APPROVAL_FORMAT ? rebuiltByField(fields.value) : ({ ok: true, value: null } as const);
  if (!rebuiltBy.ok) return rebuiltBy;
  const signature = signatureField(fields.value);
  if (!signature.ok) return signature;
  return {
    ok: true,
    value: {
      keyId: keyId.value,
      statement: { format: known, moduleHash, world: world.value, issuedAt: issuedAt.value.text, expiresAt: expiresAt.value.text, rebuiltBy: rebuiltBy.value },
      issuedAtMs: issuedAt.value.ms,
      expiresAtMs: expiresAt.value.ms,
      signature: signature.value,
    },
  };
}

function worldField(fields: Readonly<Record<string, unknown>>): Parsed<BundleWorld> {
  const world = bundleWorld(fields['world']);
  return world === undefined ? { ok: false, problem: 'has no `world` with `org`, `domain` and `version` strings' } : { ok: true, value: world };
}

/** v3's `rebuilt_by`: required, `null` or the compiler `{ "name", "version" }` that rebuilt the bundle. */
function rebuiltByField(fields: Readonly<Record<string, unknown>>): Parsed<ApprovalCompiler | null> {
  const value = fields['rebuilt_by'];
  if (value === null) return { ok: true, value: null };
  if (typeof value === 'object' && !Array.isArray(value)) {
    const { name, version } = value as Readonly<Record<string, unknown>>;
    if (typeof name === 'string' && typeof version === 'string') return { ok: true, value: { name, version } };
  }
  return { ok: false, problem: 'has no `rebuilt_by`: `null` or the compiler `{ "name", "version" }` (strings) that rebuilt the bundle' };
}

function timeField(fields: Readonly<Record<string, unknown>>, name: string): Parsed<{ text: string; ms: number }> {
  const text = fields[name];
  const ms = typeof text === 'string' ? parseApprovalTime(text) : undefined;
  if (ms === undefined) return { ok: false, problem: `has no \`${name}\` time of the form YYYY-MM-DDTHH:MM:SSZ` };
  return { ok: true, value: { text: text as string, ms } };
}

/** The base64 text written into `signature` fields. */
export function encodeSignature(signature: Uint8Array): string {
  return Buffer.from(signature).toString('base64');
}

function parseObject(bytes: Uint8Array): Parsed<Readonly<Record<string, unknown>>> {
  const text = decodeUtf8Exactly(bytes);
  if (text === undefined) return { ok: false, problem: 'is not valid UTF-8' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'is not a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}

function keyIdField(fields: Readonly<Record<string, unknown>>): Parsed<string> {
  const keyId = fields['key_id'];
  if (typeof keyId !== 'string') return { ok: false, problem: 'has no `key_id` string' };
  if (!KEY_ID_PATTERN.test(keyId)) {
    return { ok: false, problem: `has \`key_id\` \`${truncate(keyId)}\`, expected a JWK thumbprint (43 base64url characters)` };
  }
  return { ok: true, value: keyId };
}

function signatureField(fields: Readonly<Record<string, unknown>>): Parsed<Buffer> {
  const text = fields['signature'];
  if (typeof text !== 'string') return { ok: false, problem: 'has no `signature` string' };
  const bytes = decodeBase64Strictly(text);
  if (bytes === undefined) return { ok: false, problem: '`signature` is not standard base64' };
  if (bytes.length !== SIGNATURE_BYTES) {
    return { ok: false, problem: `\`signature\` decodes to ${bytes.length} bytes, expected ${SIGNATURE_BYTES} (Ed25519)` };
  }
  return { ok: true, value: bytes };
}

/**
 * Node's base64 decoder skips characters it does not know; this one accepts only the
 * canonical encoding, so one signature has exactly one spelling.
 */
function decodeBase64Strictly(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The text written to signature.json or approval.json: two-space JSON and a final newline. */
export function formatSignatureFile(file: SignatureFile | ApprovalFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
