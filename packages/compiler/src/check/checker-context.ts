/**
 * The diagnostics sink every check step reports into. Checking never stops at the first
 * problem: each step reports what it finds and carries on with a poison `error` type, so
 * one run shows every problem of the world.
 */
import { diagnostic, type Diagnostic, type DiagnosticCode, type DiagnosticExtras, type MessageArgs, type Span } from '@adec/diagnostics';

export class DiagnosticSink {
  private readonly reported: Diagnostic[] = [];

  report(code: DiagnosticCode, span: Span, args: MessageArgs = {}, extras: DiagnosticExtras = {}): void {
    this.reported.push(diagnostic(code, span, args, extras));
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.reported;
  }

  get hasErrors(): boolean {
    return this.reported.some((d) => d.severity === 'error');
  }
}

/** "first declared at rules.adec:12:3": the note a duplicate points back with. */
export function firstDeclaredAt(span: Span): string {
  return `first declared at ${span.file}:${span.line}:${span.column}`;
}
