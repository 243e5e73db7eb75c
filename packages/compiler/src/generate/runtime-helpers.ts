/**
 * The few local functions generated predicates call. They are emitted into the module only
 * when used, always in this order, so a module stays self-contained (the sandbox offers no
 * library) and byte-identical for identical input. Their one definition is the ABI's helper
 * library (@adec/abi helper-library.ts): the runtime checks a bundle's helpers against it. A
 * built-in lowered to a helper (model/builtins.ts) names one of them: emit-expr.ts passes it
 * where a `HelperName` is required.
 */
import { HELPER_LIBRARY, HELPER_NAMES, type HelperName } from '@adec/abi';

export { HELPER_NAMES, type HelperName };

/** Source text of the used helpers, each with its doc comment, in a fixed order. */
export function helperSources(used: ReadonlySet<HelperName>): readonly string[] {
  return HELPER_NAMES.filter((name) => used.has(name)).map((name) => `/** ${HELPER_LIBRARY[name].doc} */\n${HELPER_LIBRARY[name].text}`);
}
