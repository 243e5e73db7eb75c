import { diagnosticToJson, renderDiagnostics, type Diagnostic } from '@adec/diagnostics';
import type { WorldSources } from '@adec/compiler';
import type { OutputStream } from './io.js';

export type OutputFormat = 'text' | 'json';

/** Writes rendered diagnostics (with source excerpts) to stderr; nothing when there are none. */
export function reportDiagnostics(stderr: OutputStream, diagnostics: readonly Diagnostic[], sources: WorldSources): void {
  if (diagnostics.length === 0) return;
  const byPath = new Map(sources.files.map((file) => [file.path, file.text]));
  stderr.write(renderDiagnostics(diagnostics, (path) => byPath.get(path)));
}

export function diagnosticsJson(diagnostics: readonly Diagnostic[]) {
  return diagnostics.map(diagnosticToJson);
}

export function writeJson(stdout: OutputStream, value: unknown): void {
  stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Progress lines for long operations: shown only when stderr is a terminal, so CI logs and
 * pipes stay clean (ARCHITECTURE.md "CLI contract").
 */
export function progress(stderr: OutputStream): (message: string) => void {
  if (stderr.isTTY !== true) return () => {};
  return (message) => stderr.write(`\x1b[2m${message}\x1b[0m\n`);
}
