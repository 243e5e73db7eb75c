/**
 * Freezes a JSON-like value and everything inside it. Values the runtime shares between
 * requests or decisions (a context default, a work_frame) are frozen this way, so no request
 * and no consumer of a decision can change what the next one sees.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
