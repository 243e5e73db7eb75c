/**
 * Spans (1-based lines and columns, UTF-16 offsets) as LSP ranges (0-based). The compiler's
 * LineMap and the LSP count lines the same way (`\n`, `\r\n` and a lone `\r` each end one)
 * and columns in UTF-16 code units, so a span converts without the text.
 */
import type { Span } from '@adec/diagnostics';
import type { Range } from 'vscode-languageserver';

export function spanRange(span: Span): Range {
  return {
    start: { line: span.line - 1, character: span.column - 1 },
    end: { line: span.endLine - 1, character: span.endColumn - 1 },
  };
}
