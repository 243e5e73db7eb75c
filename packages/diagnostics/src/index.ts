/**
 * @adec/diagnostics — the diagnostic model every phase reports with: spans, the code
 * catalogue, "did you mean" suggestions and the renderers used by the CLI.
 */
export { CATALOGUE, DIAGNOSTIC_CODES } from './catalogue.js';
export type { CatalogueEntry, DiagnosticCode, Severity } from './catalogue.js';
export { diagnostic, hasErrors, sortDiagnostics } from './diagnostic.js';
export type { Diagnostic, DiagnosticExtras, MessageArgs } from './diagnostic.js';
export { diagnosticToJson, renderDiagnostic, renderDiagnostics, summarize } from './render.js';
export type { DiagnosticJson, SourceLookup } from './render.js';
export { compareSpans, joinSpans } from './span.js';
export { counted } from './counted.js';
export type { Span } from './span.js';
export { closeMatches, closestMatch, editDistance } from './suggest.js';
