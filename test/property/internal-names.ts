/**
 * Texts of adec's internals that mean nothing to an author and that no world can spell: the
 * checker's poison type, the parser's placeholder, an object rendered by JavaScript. Issue 13:
 * "no internal type name ever reaches a message".
 */
import type { Diagnostic } from '@adec/diagnostics';

const INTERNAL_NAMES = ['<error>', 'MissingExpr', '[object Object]'];

/** The first internal name in a diagnostic's message, label, help or notes. */
export function internalNameIn(d: Diagnostic): string | undefined {
  const texts = [d.message, d.label ?? '', d.help ?? '', ...(d.notes ?? [])];
  return INTERNAL_NAMES.find((name) => texts.some((text) => text.includes(name)));
}
