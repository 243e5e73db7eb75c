/**
 * The one catalogue of reasons a bundle is refused. Verification never writes message text
 * inline: it names a code and fills the template's `{placeholders}` (the argument names are
 * checked by the type system). The catalogue is in check order: `verifyBundle` reports the
 * first code that applies, and test/trust fails if a code here is never produced.
 *
 * Message style (as in @adec/diagnostics): lowercase, no final period, user input in backticks.
 */

/** The step of verification a failure belongs to. */
export type VerificationCheck = 'files' | 'signature' | 'manifest' | 'module_hash' | 'approval';

interface CatalogueEntry {
  readonly check: VerificationCheck;
  readonly message: string;
}

export const VERIFICATION_CATALOGUE = {
  BUNDLE_FILE_MISSING: { check: 'files', message: '{problem}' },
  SIGNATURE_MISSING: { check: 'signature', message: 'the bundle is not signed: it has no signature.json' },
  SIGNATURE_MALFORMED: { check: 'signature', message: 'signature.json {problem}' },
  SIGNER_UNTRUSTED: {
    check: 'signature',
    message: 'signature.json is by key `{keyId}`, which is not a trusted signing key (trusted signing keys: {trusted})',
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
  APPROVAL_MISSING: { check: 'approval', message: 'approval is required but the bundle has no approval.json' },
  APPROVAL_MALFORMED: { check: 'approval', message: 'approval.json {problem}' },
  APPROVER_UNTRUSTED: {
    check: 'approval',
    message: 'approval.json is by key `{keyId}`, which is not a trusted approval key{onlySigner} (trusted approval keys: {trusted})',
  },
  APPROVAL_HASH_MISMATCH: {
    check: 'approval',
    message: 'approval.json approves module `{approved}` but this bundle is `{actual}`: the approval is for another bundle',
  },
  APPROVAL_SIGNATURE_INVALID: {
    check: 'approval',
    message: 'the approval by key `{keyId}` does not verify over module hash `{moduleHash}`: the approval is forged or was edited',
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
