/**
 * Names in generated code: world identifiers become TypeScript property keys and type names.
 * World names are identifiers in the language, but ids (`"GR-REST-MIN"`) and reserved words
 * are not always valid TypeScript identifiers, so every key goes through here.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written unquoted after a dot or as an object key. */
export function isIdentifierName(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * An object-literal key for `name`. `__proto__` is written as a computed key because a plain
 * (even quoted) `__proto__:` key sets the prototype instead of defining a property.
 */
export function propertyKey(name: string): string {
  if (name === '__proto__') return '["__proto__"]';
  return isIdentifierName(name) ? name : stringLiteral(name);
}

/** `object.name`, `object?.name`, or the element-access form when `name` is not an identifier. */
export function memberAccess(object: string, name: string, optional = false): string {
  if (isIdentifierName(name)) return `${object}${optional ? '?.' : '.'}${name}`;
  return `${object}${optional ? '?.' : ''}[${stringLiteral(name)}]`;
}

/** `add_dependent` → `AddDependent`, `hr.benefits` → `HrBenefits`. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  if (joined.length === 0) return 'Unnamed';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/**
 * Hands out type names that never collide with each other or with the module's fixed names
 * (`add_dependent` and `addDependent` both want `AddDependentContext`; the second gets `…2`).
 * Names are handed out in declaration order, so the result is deterministic.
 */
export class TypeNamer {
  private readonly used: Set<string>;

  constructor(reserved: readonly string[]) {
    this.used = new Set(reserved);
  }

  name(base: string): string {
    let candidate = base;
    for (let n = 2; this.used.has(candidate); n++) candidate = `${base}${n}`;
    this.used.add(candidate);
    return candidate;
  }
}

/**
 * A double-quoted string literal of printable ASCII only: every other code unit is a `\uXXXX`
 * escape. World text reaches generated code only through here (or `templateText`), so no
 * author string can hold a line terminator (U+2028 and U+2029 end a line for a regex's `^`/`$`
 * and for a `//` comment), a lone surrogate or a control character, and generated files are
 * ASCII (V8 keeps them at one byte per character).
 */
export function stringLiteral(text: string): string {
  // JSON.stringify escapes `"`, `\`, C0 controls and lone surrogates; what it leaves raw
  // (DEL, C1 controls, U+2028/2029, every other non-ASCII unit) is escaped next, and cannot
  // follow an escaping backslash because JSON.stringify doubled every backslash.
  return escapeNonAscii(JSON.stringify(text));
}

/** Text inside a template literal (`…${x}…`), ASCII only, with the template's own escapes. */
export function templateText(text: string): string {
  return escapeNonAscii(text.replace(/[\\`]|\$\{/g, (m) => `\\${m}`));
}

/**
 * A pattern as the body of an ASCII regex literal. RegExp#source escapes `/` and the line
 * terminators; every other unit outside printable ASCII becomes `\uXXXX` (two escaped halves of
 * a pair are one code point again under `u`). An identity escape of such a unit (`\é`, allowed
 * without `u`) becomes that unit's escape.
 */
export function regexLiteralSource(source: string, flags: string): string {
  return new RegExp(source, flags).source.replace(/(\\*)([^\x20-\x7e])/g, (_, slashes: string, unit: string) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return `${kept}${unicodeEscape(unit)}`;
  });
}

function escapeNonAscii(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, unicodeEscape);
}

function unicodeEscape(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text safe inside a generated `//` comment: world text (file names, enum members, defaults)
 * must never end the comment early and turn into code, and stays ASCII.
 */
export function lineCommentText(text: string): string {
  return escapeNonAscii(text.replace(/[\r\n\u2028\u2029]+/g, ' '));
}

/** Text safe inside a generated `/** … *\/` doc comment. */
export function docCommentText(text: string): string {
  return lineCommentText(text).replace(/\*\//g, '*\\/');
}
