/**
 * The helper library of generated code: the few local functions a generated module calls
 * (`clamp`, `isIn`, `deepEqual`, …; the sandbox offers no library). One definition for both
 * ends of the module ABI: the compiler emits a module's helpers from these texts
 * (compiler generate/runtime-helpers.ts), and the runtime knows a bundle's helpers by the hash
 * of the JavaScript esbuild makes of them (bundle-forms.generated.ts), refusing any
 * other function (runtime load/generated-code/).
 */

/** A helper's name: the built-ins lowered to a local function (compiler model/builtins.ts), and what codegen itself needs. */
export type HelperName =
  | 'clamp'
  | 'charLength'
  | 'isIn'
  | 'containsAny'
  | 'hasElement'
  | 'hasAnyElement'
  | 'deepEqual'
  | 'formatTimestamp'
  | 'formatDuration'
  | 'nonZeroDivisor';

/** A helper as the generated TypeScript module declares it. */
export interface HelperDefinition {
  /** Its doc comment's text. */
  readonly doc: string;
  /** Its declaration, TypeScript. */
  readonly text: string;
}

export const HELPER_LIBRARY: Readonly<Record<HelperName, HelperDefinition>> = {
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
  formatTimestamp: {
    doc: 'A timestamp (ms since the epoch) as ISO 8601 UTC text, computed without `Date` (days to civil date, H. Hinnant).',
    text: `function formatTimestamp(ms: number): string {
  const days = Math.floor(ms / 86400000);
  const time = ms - days * 86400000;
  const shifted = days + 719468;
  const era = Math.floor(shifted / 146097);
  const dayOfEra = shifted - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const pad = (value: number, width: number): string => String(value).padStart(width, "0");
  const clock = \`\${pad(Math.floor(time / 3600000), 2)}:\${pad(Math.floor(time / 60000) % 60, 2)}:\${pad(Math.floor(time / 1000) % 60, 2)}\`;
  return \`\${pad(year, 4)}-\${pad(month, 2)}-\${pad(day, 2)}T\${clock}.\${pad(time % 1000, 3)}Z\`;
}`,
  },
  formatDuration: {
    doc: 'A duration (ms) as a person reads it: `30 days`, `2 hours 30 minutes`, `1 second 500 milliseconds`, `0 seconds`.',
    text: `function formatDuration(ms: number): string {
  const units: readonly (readonly [string, number])[] = [["day", 86400000], ["hour", 3600000], ["minute", 60000], ["second", 1000], ["millisecond", 1]];
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, unitMs] of units) {
    const count = Math.floor(rest / unitMs);
    rest -= count * unitMs;
    if (count > 0) parts.push(\`\${count} \${unit}\${count === 1 ? "" : "s"}\`);
  }
  return parts.length === 0 ? "0 seconds" : \`\${ms < 0 ? "-" : ""}\${parts.join(" ")}\`;
}`,
  },
  nonZeroDivisor: {
    doc: 'The divisor of `/` or `%`, or a fault when it is 0: a division by 0 has no value, so the predicate fails (never reads Infinity or NaN).',
    text: `function nonZeroDivisor(divisor: number, written: string): number {
  if (divisor === 0) throw new RangeError(\`division by zero: \${written} is 0\`);
  return divisor;
}`,
  },
};

/** Every helper, in the order a module declares the ones it uses. */
export const HELPER_NAMES: readonly HelperName[] = [
  'clamp',
  'charLength',
  'isIn',
  'containsAny',
  'hasElement',
  'hasAnyElement',
  'deepEqual',
  'formatTimestamp',
  'formatDuration',
  'nonZeroDivisor',
];
