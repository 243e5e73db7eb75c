/**
 * Decodes bytes that must be UTF-8 exactly: an invalid sequence is refused rather than
 * replaced, and a byte order mark is kept, so the text is the bytes that were hashed and
 * signed, nothing more and nothing less.
 */
export function decodeUtf8Exactly(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
