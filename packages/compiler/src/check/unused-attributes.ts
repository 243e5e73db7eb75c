/**
 * ADEC5006: a context attribute no rule, computed attribute or test reads is dead weight
 * in every request schema (and often a misspelling of one that is read). System values
 * are captured anyway and recorded in every decision, so they are never reported.
 */
import type { DiagnosticSink } from './checker-context.js';
import type { DeclaredAttribute } from './check-context.js';

export function reportUnusedAttributes(attributes: readonly DeclaredAttribute[], used: ReadonlySet<DeclaredAttribute>, sink: DiagnosticSink): void {
  for (const attribute of attributes) {
    if (attribute.decl.source === 'system' || used.has(attribute)) continue;
    sink.report('ADEC5006', attribute.decl.name.span, { name: attribute.name });
  }
}
