import type { JWTPayload } from 'jose';
import { authFailure, type AuthFailure } from './auth-failure.js';
import type { Caller } from './caller.js';
import { delegationChain } from './delegation-chain.js';
import { quoted, shownValue } from './quoted-value.js';

/**
 * Reading the Caller out of the claims of a token whose signature, issuer, audience and times
 * jose has verified. Every claim adec reads is checked for its form here; a wrong one refuses
 * the token with TOKEN_CLAIMS_INVALID naming the claim.
 */
export type CallerClaims = { readonly ok: true; readonly caller: Caller } | AuthFailure;

/**
 * A tenant id becomes part of routing keys, log lines and audit records: it must be short and
 * printable. Length is counted in code points, as a person counts characters.
 */
export const MAX_TENANT_CHARS = 200;

/** C0 and C1 controls and DEL, and lone surrogates (which no UTF-8 store can hold). */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

export function callerOf(payload: JWTPayload, tenantClaim: string): CallerClaims {
  const { sub, jti, act } = payload;
  if (typeof sub !== 'string' || sub === '') return refuse(`\`sub\` must be a non-empty string, not ${shownValue(sub)}`);
  const tenant = tenantOf(payload[tenantClaim], tenantClaim);
  if (tenant.problem !== undefined) return refuse(tenant.problem);
  if (jti !== undefined && (typeof jti !== 'string' || jti === '')) return refuse(`\`jti\` must be a non-empty string, not ${shownValue(jti)}`);
  const scopes = scopesOf(payload);
  if (scopes.problem !== undefined) return refuse(scopes.problem);
  const delegation = delegationChain(act);
  if (!delegation.ok) return refuse(delegation.problem);
  return {
    ok: true,
    caller: { tenant: tenant.value, subject: sub, delegation: delegation.chain, tokenId: jti ?? null, scopes: scopes.value },
  };
}

type ClaimRead<T> = { readonly value: T; readonly problem?: undefined } | { readonly problem: string };

function tenantOf(value: unknown, claim: string): ClaimRead<string> {
  const name = `the tenant claim ${quoted(claim)}`;
  if (typeof value !== 'string') return { problem: `${name} must be a string, not ${shownValue(value)}` };
  if (value === '') return { problem: `${name} is empty` };
  const length = Array.from(value).length;
  if (length > MAX_TENANT_CHARS) return { problem: `${name} is ${length} characters long, over the limit of ${MAX_TENANT_CHARS}` };
  if (UNPRINTABLE.test(value)) return { problem: `${name} holds a control character or a lone surrogate: ${quoted(value)}` };
  return { value };
}

/**
 * `scope` is RFC 8693 §4.2's space-separated string; `scp` is what Okta (a list) and Microsoft
 * (a space-separated string) issue. When a token has both, `scope` is the standard one and wins.
 */
function scopesOf(payload: JWTPayload): ClaimRead<readonly string[]> {
  const { scope, scp } = payload;
  if (scope !== undefined) {
    return typeof scope === 'string' ? { value: splitScopes(scope) } : { problem: `\`scope\` must be a space-separated string, not ${shownValue(scope)}` };
  }
  if (scp === undefined) return { value: [] };
  if (typeof scp === 'string') return { value: splitScopes(scp) };
  if (Array.isArray(scp)) {
    const index = scp.findIndex((item) => typeof item !== 'string' || item === '' || item.includes(' '));
    if (index === -1) return { value: [...new Set(scp as string[])] };
    return { problem: `\`scp[${index}]\` must be a non-empty string without spaces, not ${shownValue(scp[index])}` };
  }
  return { problem: `\`scp\` must be a list of strings or a space-separated string, not ${shownValue(scp)}` };
}

function splitScopes(scopes: string): readonly string[] {
  return [...new Set(scopes.split(' ').filter((scope) => scope !== ''))];
}

function refuse(problem: string): AuthFailure {
  return authFailure('TOKEN_CLAIMS_INVALID', { problem });
}
