import type { Actor } from './caller.js';
import { shownValue } from './quoted-value.js';

/**
 * Reading the RFC 8693 §4.1 `act` claim: a JSON object naming the current actor by `sub`
 * (and optionally `iss` and `client_id`), whose own `act` names the actor before it, and so on.
 * Other members of an actor are ignored, as §4.1 says they are not meaningful there. A problem
 * names the JSON path of the offending value (`act.act.sub`).
 */
export type DelegationChain = { readonly ok: true; readonly chain: readonly Actor[] } | { readonly ok: false; readonly problem: string };

/**
 * Real delegation is one or two hops; the bound keeps a hostile token from making every
 * request walk, store and record an arbitrarily long chain.
 */
export const MAX_DELEGATION_DEPTH = 10;

/** The chain an `act` claim describes, outermost (current) actor first; `undefined` is no delegation. */
export function delegationChain(act: unknown): DelegationChain {
  const chain: Actor[] = [];
  let next = act;
  let path = 'act';
  while (next !== undefined) {
    if (chain.length === MAX_DELEGATION_DEPTH) {
      return refuse(`the \`act\` chain is more than ${MAX_DELEGATION_DEPTH} actors deep (\`${path}\` would be actor ${MAX_DELEGATION_DEPTH + 1})`);
    }
    const read = actorAt(next, path);
    if ('problem' in read) return refuse(read.problem);
    chain.push(read.actor);
    next = read.prior;
    path = `${path}.act`;
  }
  return { ok: true, chain };
}

type ActorRead = { readonly actor: Actor; readonly prior: unknown } | { readonly problem: string };

/** The actor at `path`, and the value of its own `act` (the actor before it). */
function actorAt(value: unknown, path: string): ActorRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: `\`${path}\` must be a JSON object, not ${shownValue(value)}` };
  const members = value as Readonly<Record<string, unknown>>;
  const subject = members['sub'];
  if (subject === undefined) return { problem: `\`${path}.sub\` is missing: every actor must name its subject` };
  if (!isNonEmptyString(subject)) return { problem: `\`${path}.sub\` must be a non-empty string, not ${shownValue(subject)}` };
  const issuer = members['iss'];
  if (issuer !== undefined && !isNonEmptyString(issuer)) return { problem: `\`${path}.iss\` must be a non-empty string, not ${shownValue(issuer)}` };
  const clientId = members['client_id'];
  if (clientId !== undefined && !isNonEmptyString(clientId)) {
    return { problem: `\`${path}.client_id\` must be a non-empty string, not ${shownValue(clientId)}` };
  }
  return { actor: { subject, issuer: issuer ?? null, clientId: clientId ?? null }, prior: members['act'] };
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function refuse(problem: string): DelegationChain {
  return { ok: false, problem };
}
