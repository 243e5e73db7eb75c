import { importJWK, type CryptoKey, type JWK } from 'jose';
import { quoted, quotedList } from './quoted-value.js';

/**
 * Which public keys may verify tokens, and how one is imported. The algorithm a token is
 * verified with is the one its key declares, never the one its header asks for (OPA and Cedar
 * do the same), so every key must declare an `alg`, and only asymmetric signature algorithms
 * are accepted: with a symmetric (HS*) key anyone who can verify can also sign.
 */
export const ACCEPTED_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'RS256', 'PS256'] as const;

export type AcceptedAlgorithm = (typeof ACCEPTED_ALGORITHMS)[number];

/** A public JWK that passed `acceptKey`, with the two members verification reads. */
export interface VerificationKey {
  readonly kid: string;
  readonly alg: AcceptedAlgorithm;
  readonly jwk: JWK;
}

export type KeyAcceptance = { readonly ok: true; readonly key: VerificationKey } | { readonly ok: false; readonly problem: string };

type KeyImport = { readonly ok: true; readonly cryptoKey: CryptoKey } | { readonly ok: false; readonly problem: string };

/** The key type and curve each algorithm verifies with (RFC 7518 §3, RFC 8037 §3.1, RFC 9864). */
const KEY_TYPE_OF: Readonly<Record<AcceptedAlgorithm, { readonly kty: string; readonly crv?: string }>> = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  RS256: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
};

/** The members only a private JWK has (RFC 7518 §6.2.2, §6.3.2; `priv` for AKP keys). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'priv'];

/** jose refuses shorter RSA keys when it verifies; refusing them here says so when the key is configured. */
const MIN_RSA_MODULUS_BITS = 2048;

function isAcceptedAlgorithm(alg: unknown): alg is AcceptedAlgorithm {
  return typeof alg === 'string' && (ACCEPTED_ALGORITHMS as readonly string[]).includes(alg);
}

/**
 * Checks the form of one configured key. A problem is the end of a sentence that starts with
 * the key's name (`keys[2] (kid `a`)`), and never quotes key material.
 */
export function acceptKey(jwk: unknown): KeyAcceptance {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return refuse('is not a JWK: expected a JSON object');
  const members = jwk as Readonly<Record<string, unknown>>;
  const { kty, kid, alg, crv, use } = members;
  if (typeof kty !== 'string') return refuse('has no `kty`');
  if (kty === 'oct') {
    return refuse('is a symmetric (`oct`) key: anyone holding it could sign tokens, so only public keys of asymmetric algorithms are accepted');
  }
  const privateMember = PRIVATE_MEMBERS.find((name) => Object.hasOwn(members, name));
  if (privateMember !== undefined) return refuse(`is a private key (it has \`${privateMember}\`): configure only its public key`);
  if (typeof kid !== 'string' || kid === '') return refuse('has no `kid`: tokens name the key that signed them by its `kid`');
  if (alg === undefined) return refuse(`has no \`alg\`: tokens are verified with the algorithm their key declares (one of ${quotedList(ACCEPTED_ALGORITHMS)})`);
  if (!isAcceptedAlgorithm(alg)) {
    const declared = typeof alg === 'string' ? quoted(alg) : 'that is not a string';
    return refuse(`declares \`alg\` ${declared}, which is not accepted (accepted: ${quotedList(ACCEPTED_ALGORITHMS)})`);
  }
  const expected = KEY_TYPE_OF[alg];
  if (kty !== expected.kty || (expected.crv !== undefined && crv !== expected.crv)) {
    return refuse(`has key type ${describeKeyType(kty, crv)}, but \`alg\` ${quoted(alg)} verifies with key type ${describeKeyType(expected.kty, expected.crv)}`);
  }
  if (use !== undefined && use !== 'sig') {
    const declared = typeof use === 'string' ? quoted(use) : 'that is not a string';
    return refuse(`declares \`use\` ${declared}: a key that verifies tokens must have \`use\` \`sig\``);
  }
  const keyOps = members['key_ops'];
  if (keyOps !== undefined && !(Array.isArray(keyOps) && keyOps.includes('verify'))) {
    return refuse('declares `key_ops` without `verify`: it may not be used to verify tokens');
  }
  return { ok: true, key: { kid, alg, jwk } };
}

/** Imports an accepted key for Web Crypto, checking its material (a point on the curve, an RSA modulus long enough). */
export async function importVerificationKey(key: VerificationKey): Promise<KeyImport> {
  let imported: Awaited<ReturnType<typeof importJWK>>;
  try {
    imported = await importJWK(key.jwk, key.alg);
  } catch (error) {
    return refuse(`is not a usable ${quoted(key.alg)} public key (${error instanceof Error ? error.message : String(error)})`);
  }
  if (imported instanceof Uint8Array) return refuse('is a symmetric key: only public keys of asymmetric algorithms are accepted');
  const modulusBits = (imported.algorithm as { readonly modulusLength?: number }).modulusLength;
  if (modulusBits !== undefined && modulusBits < MIN_RSA_MODULUS_BITS) {
    return refuse(`is a ${modulusBits}-bit RSA key: RSA keys must have at least ${MIN_RSA_MODULUS_BITS} bits`);
  }
  return { ok: true, cryptoKey: imported };
}

/** `` `EC` `P-256` ``, `` `RSA` ``. */
function describeKeyType(kty: string, crv: unknown): string {
  return typeof crv === 'string' ? `${quoted(kty)} ${quoted(crv)}` : quoted(kty);
}

function refuse(problem: string): { readonly ok: false; readonly problem: string } {
  return { ok: false, problem };
}
