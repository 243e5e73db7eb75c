/**
 * Where two JSON values differ, as JSONPaths with both sides: what a replay reports when a
 * re-executed decision is not identical to the recorded one.
 */

export interface Difference {
  readonly path: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
}

/** The first `limit` differences between `recorded` and `replayed`, depth first, in key order. */
export function jsonDifferences(recorded: unknown, replayed: unknown, limit = 20): Difference[] {
  const found: Difference[] = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (found.length >= limit) return;
    if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
      const keys = Array.isArray(a) ? Array.from({ length: Math.max(a.length, (b as unknown[]).length) }, (_, i) => String(i)) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
      for (const key of keys) {
        const at = Array.isArray(a) ? `${path}[${key}]` : `${path}${/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
        walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], at);
      }
      return;
    }
    if (!Object.is(a, b)) found.push({ path, recorded: a, replayed: b });
  };
  walk(recorded, replayed, '$');
  return found;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}
