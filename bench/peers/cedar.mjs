/**
 * Cedar (cedar-wasm): every synthetic rule as one `permit` policy whose id is the rule id and
 * whose `when` clause tests the request context. Cedar is an authorization language rather than a
 * decision engine, but "which policies are satisfied" is exactly "which rules matched", and
 * cedar-wasm reports that set as the answer's `diagnostics.reason`.
 *
 * The policy set is preparsed once into cedar-wasm's thread-local cache, so a request pays for
 * authorization only: converting the context across the wasm boundary and evaluating policies,
 * never parsing them again.
 */
// The nodejs build loads its .wasm synchronously from disk; the default (bundler) build needs a
// bundler to resolve the .wasm import, which plain Node ESM cannot do.
import { preparsePolicySet, statefulIsAuthorized } from '@cedar-policy/cedar-wasm/nodejs';
import { setFlagsFromString } from 'node:v8';

// Node 20's V8 aborts the process ("unreachable code" in Deoptimizer::DoComputeBuiltinContinuation)
// when TurboFan has inlined a JS→Wasm call into `matched` and that code is deoptimized while the
// wasm is calling back into JS, which cedar-wasm's glue does on every request (seen here after a
// few thousand calls). Not inlining JS→Wasm calls avoids it; the flag only changes how calls into
// WebAssembly are compiled, and costs nanoseconds against a call of a hundred microseconds or more.
setFlagsFromString('--no-turbo-inline-js-wasm-calls');

const str = JSON.stringify;
// cedar-wasm caches preparsed sets by id for the whole thread, and preparsing under an existing id
// replaces that set, so every adapter gets its own id: an adapter prepared earlier must keep
// deciding its own rules.
let preparedSets = 0;

/**
 * A `like` pattern that matches `text` anywhere. Inside a pattern `*` is the wildcard, so a
 * literal star in the word is escaped after the string itself has been quoted.
 */
function likeAnywhere(text) {
  return `"*${str(text).slice(1, -1).replaceAll('*', '\\*')}*"`;
}

function cedarCondition(condition) {
  const value = `context.${condition.attribute}`;
  switch (condition.kind) {
    case 'equals': return `${value} == ${str(condition.value)}`;
    // Cedar numbers are 64-bit integers only: the bounds and the context amounts are integers.
    case 'range': return `${value} >= ${condition.low} && ${value} < ${condition.high}`;
    case 'member': return `${value}.contains(${str(condition.value)})`;
    case 'contains': return `${value} like ${likeAnywhere(condition.value)}`;
    // Reading an absent attribute is an evaluation error in Cedar, so the default needs `has`.
    case 'aboveOrDefault':
      return `(if context has ${condition.attribute} then ${value} else ${condition.fallback}) > ${condition.bound}`;
    case 'atLeast': return `${value} >= ${condition.bound}`;
  }
}

function policy(rule) {
  const tests = [`context.region == ${str(rule.region)}`, ...rule.conditions.map(cedarCondition)];
  return `permit(principal, action, resource) when { ${tests.join(' && ')} };`;
}

/** Cedar's failures arrive as data; surface them so a broken policy can never read as "no match". */
function fail(what, messages) {
  throw new Error(`Cedar ${what}: ${messages.join('; ')}`);
}

export function prepareCedar(rules) {
  // A record of id → text makes each policy's id the rule id, which is what `reason` reports.
  const staticPolicies = Object.fromEntries(rules.map((rule) => [rule.id, policy(rule)]));
  const preparsedPolicySetId = `synthetic-rules-${++preparedSets}`;
  const parsed = preparsePolicySet(preparsedPolicySetId, { staticPolicies });
  if (parsed.type !== 'success') fail('could not parse the policies', parsed.errors.map((error) => error.message));

  // The policies constrain only the context, so principal, action and resource are fixed dummies.
  const entity = { type: 'Bench', id: 'request' };
  const request = { principal: entity, action: { type: 'Action', id: 'decide' }, resource: entity, entities: [], preparsedPolicySetId };
  return {
    name: 'Cedar (cedar-wasm)',
    matched(context) {
      const answer = statefulIsAuthorized({ ...request, context });
      if (answer.type !== 'success') fail('could not authorize', answer.errors.map((error) => error.message));
      const { reason, errors } = answer.response.diagnostics;
      // An erroring policy is skipped, not denied: it would otherwise vanish from the matched set.
      if (errors.length > 0) fail('policies errored', errors.map(({ policyId, error }) => `${policyId}: ${error.message}`));
      // Every policy is a permit, so the determining policies are exactly the matched rules.
      return reason;
    },
  };
}
