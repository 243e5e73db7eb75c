/**
 * The diagnostics sink every check step reports into. Checking never stops at the first
 * problem: each step reports what it finds and carries on with a poison `error` type, so
 * one run shows every problem of the world.
 *
 * When a tool asks for the world's name bindings (`bindWorld`), the sink also carries the
 * recorder: every step that resolves a name already holds the sink, so none needs another
 * parameter, and a plain check carries none.
 */
import { diagnostic, type Diagnostic, type DiagnosticCode, type DiagnosticExtras, type MessageArgs, type Span } from '@adec/diagnostics';
import { ERROR_TYPE_TEXT } from '../model/index.js';
import type { BindingRecorder } from './name-bindings.js';

export class DiagnosticSink {
  private readonly reported: Diagnostic[] = [];

  /** `afterSyntaxErrors`: the parser already reported an error in these files. */
  constructor(
    readonly recorder?: BindingRecorder,
    private readonly afterSyntaxErrors = false,
  ) {}

  /**
   * Records a problem, unless its message would describe a type that did not resolve: that
   * poison type exists only where a problem was reported already (an unknown type, a syntax
   * error), so the message is a follow-on, and it would show the author `<error>`. Dropped only
   * once the run has an error, so no world ever loses its only one (a world's own text may
   * quote `<error>`).
   */
  report(code: DiagnosticCode, span: Span, args: MessageArgs = {}, extras: DiagnosticExtras = {}): void {
    const followOn = Object.values(args).some((value) => typeof value === 'string' && value.includes(ERROR_TYPE_TEXT));
    if (followOn && (this.afterSyntaxErrors || this.hasErrors)) return;
    this.reported.push(diagnostic(code, span, args, extras));
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.reported;
  }

  get hasErrors(): boolean {
    return this.reported.some((d) => d.severity === 'error');
  }
}

/**
 * A sink for what the checker skips after an error (a repeated clause, a test naming both an
 * action and a scenario) but walks anyway when bindings are asked for, so that the names
 * there still resolve in the editor: it records into the same recorder, and the diagnostics
 * it collects are dropped, as the first error already said what is wrong. Undefined on a
 * plain check, which skips those parts as before.
 */
export function bindingOnlySink(sink: DiagnosticSink): DiagnosticSink | undefined {
  return sink.recorder === undefined ? undefined : new DiagnosticSink(sink.recorder);
}

/** "first declared at rules.adec:12:3": the note a duplicate points back with. */
export function firstDeclaredAt(span: Span): string {
  return `first declared at ${span.file}:${span.line}:${span.column}`;
}

/**
 * Whether a test record gives `key` a second time (reported, ADEC4009, with where it was first);
 * `seen` collects the keys given so far.
 */
export function repeatedRecordKey(key: { readonly name: string; readonly span: Span }, seen: Map<string, Span>, sink: DiagnosticSink): boolean {
  const first = seen.get(key.name);
  if (first === undefined) {
    seen.set(key.name, key.span);
    return false;
  }
  sink.report('ADEC4009', key.span, { clause: key.name, owner: 'this record' }, { notes: [firstDeclaredAt(first)] });
  return true;
}
