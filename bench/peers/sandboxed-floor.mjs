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
 * The limit adec's crossing runs under: its first rule's own (5 ms), plus 1 ms for copying the
 * context in (a crossing stopped by it resumes: packages/runtime/src/sandbox/evaluate-action.ts).
 */
const CROSSING_LIMIT_MS = 6;

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
  const options = { timeout: CROSSING_LIMIT_MS };
  return {
    name: 'sandboxed floor (isolate, one crossing)',
    matched(ctx) {
      const ids = matched.applySync(undefined, [JSON.stringify(ctx)], options);
      return ids === '' ? [] : ids.split(' ');
    },
    close: () => isolate.dispose(),
  };
}
