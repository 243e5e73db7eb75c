/**
 * The deterministic part of the ADE cycle (docs/spec/selection.md §3.2–§3.4), as a trusted extension that
 * runs inside the module's isolate (runtime/src/sandbox/isolate-prelude.ts): the module's
 * functions are called where they live, with one crossing per selection, and nothing but
 * JSON text crosses. The semantics are documented in the engine README ("Selection semantics").
 *
 * Entry points:
 *   __adec_scenarios()            `{ [scenario]: { version, default_mode, signals,
 *                                 action_types } }`, the static data the host validates
 *                                 requests against
 *   __adec_select(requestJson)    request `{ scenario, signals, defaults_applied, actions,
 *                                 conditions, execution_mode }` (already validated and
 *                                 normalized by the host: select.ts) → the Selection of
 *                                 selection-trace.ts, minus `module`
 *   __adec_skills()               each skill's contract as data (skills/skill-catalog.ts)
 *   __adec_skill_render(id, in)   the first template of a deterministic skill that applies,
 *                                 rendered: `{ ok, template, payload | message }`
 *   __adec_skill_prompt(id, in)   an LLM skill's prompt rendered: `{ ok, prompt | message }`
 *   __adec_skill_invariants(id, in)  each compiled invariant over `in` (with `payload`),
 *                                 its text compared as written and as a reader sees it
 *                                 (skills/text/read-text.ts and text-forms.ts, the host's own
 *                                 functions, bundled into the script; read, compacted and spaced
 *                                 out, as the host reads text): `[{ id, as_written, as_read }]`, each
 *                                 `{ holds, error }`; an invariant of an older compiler has no
 *                                 folded form, and holds as read
 *
 * Every module function is called through `call`, so a throw becomes an entry of `errors` and
 * the cycle goes on: a failed state value throws when read, a guardrail that cannot be
 * evaluated applies (fail closed), a failed objective or tie-break key fails the ranking. The
 * isolate has no clock and no randomness, and arrays are sorted with a total order, so the same
 * request always gives the same text.
 *
 * The code is TypeScript in `isolate/` (install-selection.ts is the script; a file per stage),
 * type-checked with the rest and bundled by `npm run generate:isolate`
 * (scripts/generate-isolate-code.mjs) into selection-extension.generated.ts, which a test keeps
 * in step with its sources. Those files may use only what an isolate has: the language's
 * intrinsics and the globals of isolate/extension-globals.ts (the generator type-checks them again
 * without Node's declarations, and refuses a script that imports a Node module).
 */
import { SELECTION_EXTENSION_SCRIPT } from './selection-extension.generated.js';
import { CONFUSABLE_PROTOTYPES } from './skills/text/confusable-prototypes.js';

/**
 * The look-alike table is data the host reads from a package file when it loads, which an
 * isolate cannot: it is handed over as a literal in front of the script, which takes it away
 * before any other code can run (the script's own `"use strict"` is then a plain expression).
 */
export const SELECTION_EXTENSION = `"use strict";
globalThis.__adec_confusable_prototypes = ${JSON.stringify(CONFUSABLE_PROTOTYPES)};
${SELECTION_EXTENSION_SCRIPT}`;
