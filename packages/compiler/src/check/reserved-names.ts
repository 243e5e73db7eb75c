import { OBJECT_PROTOTYPE_NAMES } from '@adec/abi';
import type { Identifier } from '@adec/grammar';
import type { DiagnosticSink } from './checker-context.js';

/**
 * Names every JavaScript object already answers to (@adec/abi's OBJECT_PROTOTYPE_NAMES). An
 * attribute or field with one of these names would read the inherited value whenever the input
 * omits it (`ctx.constructor` is `Object`, not null), so the checker refuses them instead of
 * letting a decision depend on the host's object model.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(OBJECT_PROTOTYPE_NAMES);

/** Reports ADEC2015 when `name` is reserved; returns whether it was. */
export function reportReservedName(name: Identifier, kind: string, sink: DiagnosticSink): boolean {
  if (!RESERVED_NAMES.has(name.name)) return false;
  sink.report('ADEC2015', name.span, { name: name.name, kind }, { help: `rename it, e.g. \`${name.name.replace(/^_+/, '')}_value\`` });
  return true;
}
