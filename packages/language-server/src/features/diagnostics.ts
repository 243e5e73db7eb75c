/**
 * Compiler diagnostics as LSP diagnostics: code, severity, range, message. The `help` line
 * joins the message (editors show it under it); notes that point at a place
 * ("first declared at benefits/x.adec:12:3") become related information there, so the
 * editor links to it; a label ("this is int") is related information at the diagnostic.
 * The code links to its page in docs/diagnostics/ when the server runs from a checkout
 * that has one.
 */
import type { Diagnostic as AdecDiagnostic } from '@adec/diagnostics';
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import { spanRange } from './positions.js';

export const DIAGNOSTIC_SOURCE = 'adec';

export interface DiagnosticOptions {
  /** The URI of a file of the world, by the path its spans name. */
  readonly uriOf: (file: string) => string | undefined;
  /** Whether the client shows related information; otherwise notes join the message. */
  readonly relatedInformation: boolean;
  /** The page that explains a code (docs/diagnostics/ADEC3004.md), if there is one. */
  readonly codePage?: (code: string) => string | undefined;
}

const NOTE_LOCATION = /([^\s`'"(]+\.adec):(\d+):(\d+)/;

export function toLspDiagnostic(diagnostic: AdecDiagnostic, options: DiagnosticOptions): Diagnostic {
  const range = spanRange(diagnostic.span);
  const here = options.uriOf(diagnostic.span.file);
  const related: DiagnosticRelatedInformation[] = [];
  const unplaced: string[] = [];
  for (const note of diagnostic.notes ?? []) {
    const match = NOTE_LOCATION.exec(note);
    const uri = match === null ? here : options.uriOf(match[1]!);
    if (uri === undefined) {
      unplaced.push(note);
      continue;
    }
    const position = match === null ? range.start : { line: Number(match[2]) - 1, character: Number(match[3]) - 1 };
    related.push({ location: { uri, range: match === null ? range : { start: position, end: position } }, message: note });
  }
  if (diagnostic.label !== undefined && here !== undefined) related.push({ location: { uri: here, range }, message: diagnostic.label });

  const lines = [diagnostic.message];
  if (!options.relatedInformation) lines.push(...(diagnostic.notes ?? []).map((n) => `note: ${n}`));
  else lines.push(...unplaced.map((n) => `note: ${n}`));
  if (diagnostic.help !== undefined) lines.push(`help: ${diagnostic.help}`);
  const page = options.codePage?.(diagnostic.code);
  return {
    range,
    severity: diagnostic.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: diagnostic.code,
    ...(page !== undefined && { codeDescription: { href: page } }),
    source: DIAGNOSTIC_SOURCE,
    message: lines.join('\n'),
    ...(options.relatedInformation && related.length > 0 && { relatedInformation: related }),
  };
}
