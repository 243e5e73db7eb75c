/**
 * The sandboxed floor: the floor's predicates (floor.mjs), as plain JavaScript inside an
 * isolated-vm isolate, run in ONE crossing per decision under a time limit: the context goes in
 * as JSON text, the matched ids come out as text. No validation, no traces, no metadata: what any
 * engine that runs untrusted predicates in an isolate under a time limit must pay at least, and
 * so the fair floor for adec's in-process row (issue 14).
 */
import ivm from 'isolated-vm';
import { predicateSources } from './floor.mjs';

/**
 * The sum of the rules' limits (5 ms each): the floor has one crossing and no way to resume, so
 * its limit must cover every predicate, cold (a 6 ms limit timed out the 500-rule floor's first
 * call on a loaded CI machine). A timer costs the same whatever its length.
 */
const LIMIT_PER_RULE_MS = 5;

export function prepareSandboxedFloor(rules) {
  const predicates = predicateSources(rules);
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  const context = isolate.createContextSync();
  const source = `const predicates = [${predicates.map(({ id, body }) => `[${JSON.stringify(id)}, (context) => { ${body} }]`).join(',\n')}];
globalThis.matched = (json) => {
  const context = JSON.parse(json);
  const ids = [];
  for (const [id, holds] of predicates) if (holds(context)) ids.push(id);
  return ids.join(' ');
};`;
  isolate.compileScriptSync(source).runSync(context);
  const matched = context.global.getSync('matched', { reference: true });
  const options = { timeout: LIMIT_PER_RULE_MS * predicates.length };
  return {
    name: 'sandboxed floor (isolate, one crossing)',
    matched(ctx) {
      const ids = matched.applySync(undefined, [JSON.stringify(ctx)], options);
      return ids === '' ? [] : ids.split(' ');
    },
    close: () => isolate.dispose(),
  };
}
