/**
 * The few local functions generated predicates call. They are emitted into the module only
 * when used, always in this order, so a module stays self-contained (the sandbox offers no
 * library) and byte-identical for identical input.
 */

export type HelperName = 'clamp' | 'charLength' | 'isIn' | 'containsAny' | 'hasElement' | 'hasAnyElement' | 'deepEqual';

interface HelperSource {
  readonly doc: string;
  readonly text: string;
}

const HELPERS: Readonly<Record<HelperName, HelperSource>> = {
  clamp: {
    doc: '`clamp(x, low, high)`: x limited to [low, high].',
    text: `function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}`,
  },
  charLength: {
    doc: 'Length in characters (code points), as JSON Schema `maxLength` counts them.',
    text: `function charLength(text: string): number {
  return Array.from(text).length;
}`,
  },
  isIn: {
    doc: '`x in list`: scalar membership (absent is normalised to null by the caller).',
    text: `function isIn(element: unknown, list: readonly unknown[]): boolean {
  return list.includes(element);
}`,
  },
  containsAny: {
    doc: '`text CONTAINS_ANY [..]`: some needle is a substring of the text.',
    text: `function containsAny(text: string, needles: readonly string[]): boolean {
  return needles.some((needle) => text.includes(needle));
}`,
  },
  hasElement: {
    doc: '`list CONTAINS x`: the list has the element.',
    text: `function hasElement(list: readonly unknown[], element: unknown): boolean {
  return list.includes(element);
}`,
  },
  hasAnyElement: {
    doc: '`list CONTAINS_ANY [..]`: the lists share an element.',
    text: `function hasAnyElement(list: readonly unknown[], elements: readonly unknown[]): boolean {
  return elements.some((element) => list.includes(element));
}`,
  },
  deepEqual: {
    doc: 'Structural equality of lists and records (absent fields equal null).',
    text: `function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: unknown, index) => deepEqual(item, b[index]));
  }
  const left = a as Readonly<Record<string, unknown>>;
  const right = b as Readonly<Record<string, unknown>>;
  return Object.keys(left)
    .concat(Object.keys(right))
    .every((key) => deepEqual(left[key], right[key]));
}`,
  },
};

const ORDER: readonly HelperName[] = ['clamp', 'charLength', 'isIn', 'containsAny', 'hasElement', 'hasAnyElement', 'deepEqual'];

/** Source text of the used helpers, each with its doc comment, in a fixed order. */
export function helperSources(used: ReadonlySet<HelperName>): readonly string[] {
  return ORDER.filter((name) => used.has(name)).map((name) => `/** ${HELPERS[name].doc} */\n${HELPERS[name].text}`);
}
