import { CATALOGUE, type DiagnosticCode, type Severity } from './catalogue.js';
import { compareSpans, type Span } from './span.js';

/**
 * A problem found in a world. Phases return these as values; throwing is reserved for bugs
 * in adec itself.
 */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly span: Span;
  readonly message: string;
  /** Short text printed under the caret, e.g. "this is int". */
  readonly label?: string;
  /** Extra context, e.g. "`ineligible_over_age` is declared at rules.adec:12:3". */
  readonly notes?: readonly string[];
  /** A suggestion the author can act on, e.g. `did you mean "child"?` */
  readonly help?: string;
}

export type MessageArgs = Readonly<Record<string, string | number>>;

export interface DiagnosticExtras {
  readonly label?: string;
  readonly notes?: readonly string[];
  readonly help?: string;
}

/** Builds a diagnostic from the catalogue: the only way phases create one. */
export function diagnostic(
  code: DiagnosticCode,
  span: Span,
  args: MessageArgs = {},
  extras: DiagnosticExtras = {},
): Diagnostic {
  const entry = CATALOGUE[code];
  return {
    code,
    severity: entry.severity,
    span,
    message: fillTemplate(entry.message, args),
    ...(extras.label !== undefined && { label: extras.label }),
    ...(extras.notes !== undefined && extras.notes.length > 0 && { notes: extras.notes }),
    ...(extras.help !== undefined && { help: extras.help }),
  };
}

function fillTemplate(template: string, args: MessageArgs): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = args[key];
    if (value === undefined) throw new Error(`diagnostic template is missing argument "${key}": ${template}`);
    return String(value);
  });
}

/** All diagnostics of a run in one stable order: by file, position, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => compareSpans(a.span, b.span) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
