/**
 * Content hashes. `module_hash` is the sha256 of the bundle bytes; `source_hash` covers every
 * source file's path and text with length-prefixed framing, so no two different file sets
 * (a byte moved from one file's end to the next file's start, a renamed file, a reordering)
 * hash alike.
 */
import { createHash } from 'node:crypto';

/** Lowercase hex sha256 of `data` (strings are hashed as UTF-8). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const SOURCE_HASH_DOMAIN = 'adec-source-hash-v1\n';

/**
 * sha256 over `adec-source-hash-v1\n` then, per file in the given order,
 * `<byte length of path>:<path><byte length of text>:<text>` (UTF-8).
 */
export function sourceHash(files: readonly { readonly path: string; readonly text: string }[]): string {
  const hash = createHash('sha256').update(SOURCE_HASH_DOMAIN);
  for (const file of files) {
    for (const part of [file.path, file.text]) {
      const bytes = Buffer.from(part, 'utf8');
      hash.update(`${bytes.length}:`);
      hash.update(bytes);
    }
  }
  return hash.digest('hex');
}
