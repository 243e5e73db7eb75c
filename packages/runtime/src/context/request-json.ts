/**
 * A request's JSON text → a value, strictly: what a lenient reader silently repairs is refused
 * with the position of the problem. Invalid UTF-8 is not replaced by U+FFFD (two different
 * byte strings would decide alike and audit as the same request); a key that occurs twice in an
 * object is not resolved to the last one (two readers of one request could see two different
 * contexts). The size limit is checked before anything else and the nesting limit while
 * scanning, so a huge or deeply nested text is refused without being parsed. The other limits
 * of request-limits.ts apply to the value, when it is decided.
 *
 * A leading byte order mark is ignored: RFC 8259 §8.1 allows a reader to, editors write one, and
 * it cannot make one text read two ways.
 */
import { checkRequestBytes, DEFAULT_REQUEST_LIMITS, type RequestLimits } from './request-limits.js';
import { scanJson } from './scan-json.js';

export type RequestJsonProblemCode = 'REQUEST_LIMIT' | 'NOT_UTF8' | 'NOT_JSON' | 'DUPLICATE_KEY';

export interface RequestJsonProblem {
  readonly code: RequestJsonProblemCode;
  /** Names the problem and where it is: byte offset (from 0), line and column (from 1). */
  readonly message: string;
  readonly byteOffset: number;
  readonly line: number;
  /** In characters (code points) from the start of the line. */
  readonly column: number;
}

export type RequestJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: RequestJsonProblem };

const BOM = 0xfeff;

export function parseRequestJson(bytes: Uint8Array, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): RequestJson {
  const tooLarge = checkRequestBytes(bytes.length, limits);
  if (tooLarge !== undefined) return failure('REQUEST_LIMIT', tooLarge.message, bytes, limits.maxRequestBytes);
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the text, so that string indices map to byte offsets below.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes) ?? 0;
    return failure('NOT_UTF8', `invalid UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')})`, bytes, offset);
  }
  const start = text.charCodeAt(0) === BOM ? 1 : 0;
  const problem = scanJson(text, start, limits.maxDepth);
  if (problem !== undefined) return failure(problem.code, problem.message, bytes, Buffer.byteLength(text.slice(0, problem.index), 'utf8'));
  return { ok: true, value: JSON.parse(start === 0 ? text : text.slice(start)) as unknown };
}

/**
 * Where the first ill-formed UTF-8 sequence (RFC 3629: the bytes the fatal TextDecoder refuses)
 * starts, if there is one: the decoder says only that there is one. A sequence starts at its
 * lead byte, so a truncated or overlong character is placed where it begins.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  for (let i = 0; i < bytes.length; ) {
    const length = wellFormedLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return undefined;
}

/** The length of the well-formed character at `bytes[i]`, or 0. */
function wellFormedLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  // The range of the second byte narrows after E0, ED, F0 and F4: no overlongs, no surrogates, nothing past U+10FFFF.
  const [length, low, high] =
    b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] :
    b === 0xe0 ? [3, 0xa0, 0xbf] :
    b === 0xed ? [3, 0x80, 0x9f] :
    b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] :
    b === 0xf0 ? [4, 0x90, 0xbf] :
    b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] :
    b === 0xf4 ? [4, 0x80, 0x8f] :
    [0, 0, 0];
  const second = bytes[i + 1];
  if (length === 0 || second === undefined || second < low || second > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

function failure(code: RequestJsonProblemCode, what: string, bytes: Uint8Array, byteOffset: number): RequestJson {
  let line = 1;
  let column = 1;
  const end = Math.min(byteOffset, bytes.length);
  // An editor does not show a byte order mark: it takes no column.
  const bomBytes = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = bomBytes; i < end; i++) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      line++;
      column = 1;
    } else if (b < 0x80 || b > 0xbf) {
      // A continuation byte (80-BF) is part of the character before it.
      column++;
    }
  }
  return { ok: false, problem: { code, message: `${what} at byte ${byteOffset} (line ${line}, column ${column})`, byteOffset, line, column } };
}
