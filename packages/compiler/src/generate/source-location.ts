/**
 * Source locations printed into generated artifacts. Artifacts must not depend on where the
 * world was checked out, so a span's file is shown relative to the world directory: the
 * build passes the world's source paths (relative to the world), and a span whose file is
 * the display path (`examples/benefits/rules.adec`) is matched to one of them by suffix.
 */
import type { Span } from '@adec/diagnostics';

export function relativeSourcePath(file: string, sources: readonly string[]): string {
  const normalised = file.replace(/\\/g, '/');
  let best: string | undefined;
  for (const source of sources) {
    const candidate = source.replace(/\\/g, '/');
    if (candidate === normalised) return candidate;
    if (normalised.endsWith(`/${candidate}`) && (best === undefined || candidate.length > best.length)) best = candidate;
  }
  if (best !== undefined) return best;
  // Never leak an absolute path into an artifact: fall back to the file name.
  if (normalised.startsWith('/') || /^[A-Za-z]:\//.test(normalised)) return normalised.slice(normalised.lastIndexOf('/') + 1);
  return normalised;
}

/** `rules.adec:12` */
export function sourceLine(span: Span, sources: readonly string[]): string {
  return `${relativeSourcePath(span.file, sources)}:${span.line}`;
}
