/**
 * The one catalogue of reasons a bundle is refused. Verification never writes message text
 * inline: it names a code and fills the template's `{placeholders}` (the argument names are
 * checked by the type system). The catalogue is in check order: `verifyBundle` reports the
 * first code that applies (the KEY_ codes apply to the signing key, and later to the approval
 * key; APPROVAL_OLDER_THAN_LOADED is the loader's, after verification), and packages/runtime/test/trust fails if
 * a code here is never produced.
 *
 * Message style (as in @adec/diagnostics): lowercase, no final period, user input in backticks.
 */

/**
 * The step of verification a failure belongs to. `key`: a trusted key is weak; `revocation`: the
 * trust file revoked the bundle or set a higher minimum version; `replacement`: the host already
 * loaded a newer approval of this world version (checked by the loader, after verification).
 */
export type VerificationCheck = 'files' | 'signature' | 'key' | 'manifest' | 'module_hash' | 'revocation' | 'approval' | 'replacement';

interface CatalogueEntry {
  readonly check: VerificationCheck;
  readonly message: string;
}

export const VERIFICATION_CATALOGUE = {
  BUNDLE_FILE_MISSING: { check: 'files', message: '{problem}' },
  BUNDLE_FILE_NOT_REGULAR: { check: 'files', message: '{problem}' },
  BUNDLE_FILE_TOO_LARGE: { check: 'files', message: '{problem}' },
  SIGNATURE_MISSING: { check: 'signature', message: 'the bundle is not signed: it has no signature.json' },
  SIGNATURE_MALFORMED: { check: 'signature', message: 'signature.json {problem}' },
  SIGNER_UNTRUSTED: {
    check: 'signature',
    message: 'signature.json is by key `{keyId}`, which is not a trusted signing key (trusted signing keys: {trusted})',
  },
  SIGNING_KEY_REVOKED: { check: 'revocation', message: 'signature.json is by key `{keyId}`, which the trust file revokes' },
  KEY_NON_CANONICAL: { check: 'key', message: 'the trusted {role} key `{keyId}` is not the canonical encoding of an Ed25519 point, so it is not used' },
  KEY_NOT_ON_CURVE: { check: 'key', message: 'the trusted {role} key `{keyId}` is not a point of the Ed25519 curve, so it is not used' },
  KEY_SMALL_ORDER: {
    check: 'key',
    message: 'the trusted {role} key `{keyId}` is a point of small order, under which signatures can be forged, so it is not used',
  },
  SIGNATURE_NON_CANONICAL: {
    check: 'signature',
    message: 'the signature by key `{keyId}` is not in canonical form ({problem}): a strict verifier refuses it',
  },
  SIGNATURE_INVALID: {
    check: 'signature',
    message: 'the signature by key `{keyId}` does not verify over manifest.json: the manifest was changed after it was signed, or the signature is forged',
  },
  MANIFEST_INVALID: { check: 'manifest', message: 'manifest.json {problem}' },
  MODULE_HASH_MISMATCH: {
    check: 'module_hash',
    message: 'bundle.js hashes to `{actual}` but manifest.json declares `{expected}`: bundle.js was changed after the build',
  },
  BUNDLE_NOT_UTF8: {
    check: 'module_hash',
    message: 'bundle.js matches its module hash but is not valid UTF-8, so it cannot be run as the script that was hashed',
  },
  MODULE_REVOKED: { check: 'revocation', message: 'module `{moduleHash}` ({world}) is revoked by the trust file' },
  VERSION_BELOW_MINIMUM: {
    check: 'revocation',
    message: '{world} is below the minimum version `{minimum}` the trust file sets for {module}',
  },
  APPROVAL_MISSING: { check: 'approval', message: 'approval is required but the bundle has no approval.json' },
  APPROVAL_MALFORMED: { check: 'approval', message: 'approval.json {problem}' },
  APPROVAL_OUTDATED: {
    check: 'approval',
    message: 'approval.json has no `format`: it is an approval of the first format, which names no world version and never expires; approve the bundle again with `adec approve`',
  },
  APPROVER_UNTRUSTED: {
    check: 'approval',
    message: 'approval.json is by key `{keyId}`, which is not a trusted approval key{onlySigner} (trusted approval keys: {trusted})',
  },
  APPROVAL_KEY_REVOKED: { check: 'revocation', message: 'approval.json is by key `{keyId}`, which the trust file revokes' },
  APPROVAL_HASH_MISMATCH: {
    check: 'approval',
    message: 'approval.json approves module `{approved}` but this bundle is `{actual}`: the approval is for another bundle',
  },
  APPROVAL_SIGNATURE_NON_CANONICAL: {
    check: 'approval',
    message: 'the approval by key `{keyId}` is not in canonical form ({problem}): a strict verifier refuses it',
  },
  APPROVAL_SIGNATURE_INVALID: {
    check: 'approval',
    message: 'the approval by key `{keyId}` does not verify over module hash `{moduleHash}` with its world and validity: the approval is forged or was edited',
  },
  APPROVAL_WORLD_MISMATCH: {
    check: 'approval',
    message: 'approval.json approves {approved} but manifest.json says this bundle is {actual}: the approval is for another version',
  },
  APPROVAL_REBUILD_MISMATCH: {
    check: 'approval',
    message: 'approval.json says {rebuiltBy} rebuilt this bundle, but manifest.json says {builtBy} built it: a rebuild by another compiler cannot have given the same bytes',
  },
  APPROVAL_NOT_YET_VALID: {
    check: 'approval',
    message: 'the approval by key `{keyId}` was issued at {issuedAt}, after now ({now}) and the {skew} a clock may be off: an approval from the future would outrank every later one',
  },
  APPROVAL_EXPIRED: { check: 'approval', message: 'the approval by key `{keyId}` expired at {expiresAt} (now {now})' },
  APPROVAL_OLDER_THAN_LOADED: {
    check: 'replacement',
    message: 'module `{moduleHash}` cannot replace module `{loadedHash}` of {world}: its approval ({issuedAt}) is older than the approval of the module this host already loaded ({loadedIssuedAt})',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type VerificationCode = keyof typeof VERIFICATION_CATALOGUE;

/** Every catalogued code, in check order. */
export const VERIFICATION_CODES = Object.keys(VERIFICATION_CATALOGUE) as VerificationCode[];

/** Why a bundle was refused: the code, the step it failed, and what exactly failed. */
export interface VerificationFailure {
  readonly code: VerificationCode;
  readonly check: VerificationCheck;
  readonly message: string;
}

/** The `{names}` a template string uses, as a union of string literals. */
type Placeholders<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

type FailureArgs<Code extends VerificationCode> = Readonly<
  Record<Placeholders<(typeof VERIFICATION_CATALOGUE)[Code]['message']>, string>
>;

/** Builds a failure from the catalogue: the only way verification creates one. */
export function verificationFailure<Code extends VerificationCode>(
  code: Code,
  ...[args]: [Placeholders<(typeof VERIFICATION_CATALOGUE)[Code]['message']>] extends [never] ? [] : [FailureArgs<Code>]
): VerificationFailure {
  const entry: CatalogueEntry = VERIFICATION_CATALOGUE[code];
  const values: Readonly<Record<string, string>> = args ?? {};
  const message = entry.message.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  return { code, check: entry.check, message };
}
