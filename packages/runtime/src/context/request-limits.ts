/**
 * Limits on the shape of a request's context, checked before any other work on it (SECURITY.md
 * "Limits"). A context is the one input a caller fully controls: without limits, one 100 MB
 * string aborted the host (the binder counted its characters by spreading it into an array),
 * and megabytes of attributes the action never reads made every predicate time out, turning a
 * RED into a YELLOW.
 *
 * The walk is iterative (a context nested 100,000 deep cannot overflow the stack), stops at the
 * first limit crossed, and allocates nothing in proportion to the input: string lengths are
 * counted in code points over the UTF-16 units, keys are counted as they are enumerated.
 *
 * A request over any of these limits is refused, not decided (`REQUEST_TOO_LARGE`, decide.ts):
 * each bounds how much the host takes in (bytes, nesting, keys, items, code points), whatever
 * the world, and a request it refuses was never read by a rule, so no status would say what
 * its content calls for. An attribute's own `maxLength` is not one of them: it is the world's
 * signed schema saying what a valid value is, so a string over it is an invalid value like any
 * other (YELLOW, `CONTEXT_INVALID`, with the attribute in `missing_evidence`).
 */

export interface RequestLimits {
  /** Bytes of a request's text (for hosts that receive JSON text: `adec eval`, a service). */
  readonly maxRequestBytes: number;
  /** Nesting of objects and lists below the context object (the context itself is depth 0). */
  readonly maxDepth: number;
  readonly maxKeysPerObject: number;
  readonly maxArrayLength: number;
  /** Code points per string (an attribute's own `maxLength` is checked on top, when binding). */
  readonly maxStringCodePoints: number;
}

export type RequestLimitName = keyof RequestLimits;

export const DEFAULT_REQUEST_LIMITS: RequestLimits = Object.freeze({
  maxRequestBytes: 1024 * 1024,
  maxDepth: 32,
  maxKeysPerObject: 1_000,
  maxArrayLength: 10_000,
  maxStringCodePoints: 64 * 1024,
});

export interface LimitProblem {
  readonly limit: RequestLimitName;
  /** JSON path of the value that crossed it (empty for the context itself). */
  readonly path: string;
  readonly message: string;
}

/** The defaults with `overrides` applied; every value must be a positive whole number. */
export function requestLimits(overrides: Partial<RequestLimits> = {}): RequestLimits {
  const limits = { ...DEFAULT_REQUEST_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`request limit ${name} must be a positive whole number, found ${String(value)}`);
  }
  return Object.freeze(limits);
}

/** The byte size of a request's text against `maxRequestBytes`. */
export function checkRequestBytes(byteLength: number, limits: RequestLimits): LimitProblem | undefined {
  if (byteLength <= limits.maxRequestBytes) return undefined;
  return { limit: 'maxRequestBytes', path: '', message: `the request is ${byteLength} bytes, more than the limit of ${limits.maxRequestBytes} (maxRequestBytes)` };
}

interface Pending {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Pending | undefined;
  readonly key: string | number | undefined;
}

/**
 * The first limit `value` crosses, depth first; undefined when it fits. Its size is bounded
 * too: the UTF-16 units of its strings and keys plus one per value are a lower bound on its
 * JSON text in UTF-8, which may not exceed `maxRequestBytes` (so an object handed over in
 * process is held to the same size as a request's text).
 */
export function checkValueLimits(value: unknown, limits: RequestLimits): LimitProblem | undefined {
  const stack: Pending[] = [{ value, depth: 0, parent: undefined, key: undefined }];
  let size = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    size += 1 + (typeof item.key === 'string' ? item.key.length : 0);
    if (typeof current === 'string') {
      if (codePointLengthUpTo(current, limits.maxStringCodePoints) > limits.maxStringCodePoints) {
        return problem('maxStringCodePoints', item, `a string of more than ${limits.maxStringCodePoints} code points (maxStringCodePoints)`);
      }
      size += current.length;
    }
    if (size > limits.maxRequestBytes) return { limit: 'maxRequestBytes', path: '', message: `the context is larger than the limit of ${limits.maxRequestBytes} bytes (maxRequestBytes)` };
    if (current === null || typeof current !== 'object') continue;
    if (item.depth >= limits.maxDepth) return problem('maxDepth', item, `nested deeper than ${limits.maxDepth} levels (maxDepth)`);
    const children: Pending[] = [];
    if (Array.isArray(current)) {
      if (current.length > limits.maxArrayLength) return problem('maxArrayLength', item, `a list of ${current.length} items, more than ${limits.maxArrayLength} (maxArrayLength)`);
      for (let i = 0; i < current.length; i++) children.push({ value: current[i], depth: item.depth + 1, parent: item, key: i });
    } else {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (children.length === limits.maxKeysPerObject) return problem('maxKeysPerObject', item, `an object of more than ${limits.maxKeysPerObject} keys (maxKeysPerObject)`);
        children.push({ value: (current as Record<string, unknown>)[key], depth: item.depth + 1, parent: item, key });
      }
    }
    // Reversed, so the first problem in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/**
 * The number of code points of `text`, counting at most up to `max + 1`: a UTF-16 string of
 * `n` units has between n/2 and n code points, so most strings are decided without a loop.
 */
export function codePointLengthUpTo(text: string, max: number): number {
  if (text.length <= max) return text.length - surrogatePairs(text, text.length);
  if (text.length > 2 * max) return max + 1;
  let count = 0;
  for (let i = 0; i < text.length && count <= max; i++, count++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

function surrogatePairs(text: string, end: number): number {
  let pairs = 0;
  for (let i = 0; i + 1 < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return pairs;
}

function problem(limit: RequestLimitName, item: Pending, what: string): LimitProblem {
  const path = pathOf(item);
  return { limit, path, message: `${path === '' ? 'the context' : `\`${path}\``} is ${what}` };
}

function pathOf(item: Pending): string {
  const keys: (string | number)[] = [];
  for (let at: Pending | undefined = item; at?.key !== undefined; at = at.parent) keys.push(at.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    path += typeof key === 'number' ? `[${key}]` : path === '' ? key : `.${key}`;
  }
  return path;
}
