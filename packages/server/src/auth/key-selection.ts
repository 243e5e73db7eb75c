import { decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import { authFailure, type AuthFailure } from './auth-failure.js';
import { quoted, quotedList } from './quoted-value.js';
import type { VerificationKey } from './verification-key.js';
import type { VerificationKeys } from './verification-keys.js';

/**
 * Choosing the key a token is verified with, from its header. The header only names the key
 * (`kid`); the algorithm is the key's. A header whose `alg` differs from its key's is refused
 * rather than tried, which closes algorithm confusion (an HS256 token "signed" with a public
 * key's bytes, an RS256 token presented for an EC key) before any cryptography runs.
 */
export type KeySelection = { readonly ok: true; readonly key: VerificationKey } | AuthFailure;

export function selectKey(token: string, keys: VerificationKeys): KeySelection {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return authFailure('TOKEN_MALFORMED', { problem: 'its header is not a base64url-encoded JSON object' });
  }
  const { alg, kid, crit } = header as Readonly<Record<string, unknown>>;
  if (typeof alg !== 'string' || alg === '') return authFailure('TOKEN_MALFORMED', { problem: 'its header has no `alg`' });
  if (alg.toLowerCase() === 'none') {
    return authFailure('TOKEN_ALGORITHM_REFUSED', { problem: '`alg` `none` marks an unsigned token, and every token must be signed' });
  }
  if (/^HS/i.test(alg)) {
    return authFailure('TOKEN_ALGORITHM_REFUSED', {
      problem: `\`alg\` ${quoted(alg)} is a symmetric algorithm: tokens must be signed with the private half of a configured public key`,
    });
  }
  if (crit !== undefined) {
    return authFailure('TOKEN_ALGORITHM_REFUSED', { problem: 'its header has `crit`: no critical header extensions are accepted' });
  }
  if (kid !== undefined && typeof kid !== 'string') return authFailure('TOKEN_MALFORMED', { problem: 'its header has a `kid` that is not a string' });
  const key = kid === undefined ? keys.sole() : keys.byKid(kid);
  if (key === undefined) {
    const configured = `configured keys: ${quotedList(keys.kids)}`;
    const problem =
      kid === undefined
        ? `its header has no \`kid\`, which only a service with exactly one key accepts (${configured})`
        : `its header names key ${quoted(kid)}, which is not configured (${configured})`;
    return authFailure('TOKEN_KEY_UNKNOWN', { problem });
  }
  if (alg !== key.alg) {
    return authFailure('TOKEN_ALGORITHM_REFUSED', {
      problem: `its header asks for ${quoted(alg)}, but key ${quoted(key.kid)} verifies only ${quoted(key.alg)}`,
    });
  }
  return { ok: true, key };
}

