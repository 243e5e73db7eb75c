import { counted } from './counted.js';
import type { Diagnostic } from './diagnostic.js';

/** Looks up the text of a source file by the path diagnostics name it with. */
export type SourceLookup = (file: string) => string | undefined;

/**
 * Renders one diagnostic the way a compiler user expects to read it:
 *
 *     rules.adec:14:36: error ADEC3004: CONTAINS_ANY expects list<string> on the right, found int
 *        |
 *     14 |     payload.rationale CONTAINS_ANY action_metadata.duration_minutes
 *        |                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ this is int
 *        = help: did you mean action_metadata.session_type?
 */
export function renderDiagnostic(d: Diagnostic, sources: SourceLookup): string {
  const { span } = d;
  const header = `${span.file}:${span.line}:${span.column}: ${d.severity} ${d.code}: ${d.message}`;
  const lines = [header];
  const text = sources(span.file);
  const sourceLine = text === undefined ? undefined : lineAt(text, span.line);
  const gutter = ' '.repeat(String(span.line).length);
  if (sourceLine !== undefined) {
    const printable = sourceLine.replace(/\t/g, ' ');
    // A span running past its first line is underlined to that line's end.
    const lastColumn = span.endLine === span.line ? span.endColumn : printable.length + 1;
    const width = Math.max(1, lastColumn - span.column);
    const caret = ' '.repeat(span.column - 1) + '^'.repeat(width);
    lines.push(`${gutter} |`);
    lines.push(`${span.line} | ${printable}`);
    lines.push(`${gutter} | ${caret}${d.label !== undefined ? ` ${d.label}` : ''}`.trimEnd());
  }
  for (const note of d.notes ?? []) lines.push(`${gutter} = note: ${note}`);
  if (d.help !== undefined) lines.push(`${gutter} = help: ${d.help}`);
  return lines.join('\n');
}

/** Renders every diagnostic followed by a one-line summary ("2 errors, 1 warning"). */
export function renderDiagnostics(diagnostics: readonly Diagnostic[], sources: SourceLookup): string {
  if (diagnostics.length === 0) return '';
  const body = diagnostics.map((d) => renderDiagnostic(d, sources)).join('\n\n');
  return `${body}\n\n${summarize(diagnostics)}\n`;
}

export function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${counted(errors, 'error')}, ${counted(warnings, 'warning')}`;
}

/** The machine-readable form of `--format json`. */
export interface DiagnosticJson {
  code: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  label?: string;
  notes?: readonly string[];
  help?: string;
}

export function diagnosticToJson(d: Diagnostic): DiagnosticJson {
  const { span } = d;
  return {
    code: d.code,
    severity: d.severity,
    file: span.file,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    message: d.message,
    ...(d.label !== undefined && { label: d.label }),
    ...(d.notes !== undefined && { notes: d.notes }),
    ...(d.help !== undefined && { help: d.help }),
  };
}

/** Line `line` (1-based) of `text`, counted as spans count lines: ended by `\n`, `\r\n` or a lone `\r`. */
function lineAt(text: string, line: number): string | undefined {
  const lineEnd = /\r\n?|\n/g;
  let start = 0;
  for (let current = 1; current < line; current++) {
    lineEnd.lastIndex = start;
    const found = lineEnd.exec(text);
    if (found === null) return undefined;
    start = lineEnd.lastIndex;
  }
  lineEnd.lastIndex = start;
  const end = lineEnd.exec(text);
  return text.slice(start, end === null ? text.length : end.index);
}
