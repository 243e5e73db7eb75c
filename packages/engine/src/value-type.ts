/**
 * The type of a scenario signal, read back from the text the module carries (`_SCENARIOS`
 * signals are `{ name, type, default? }` with `type` written as the author would write it:
 * `int`, `float(0..1)`, `string(..100)`, `"low" | "high"`, `list<string>`, `{ a: int }`,
 * `T?`). ABI 2 has no other description of a signal's type, so the engine parses that text to
 * validate requests. Text it cannot read is reported, never guessed at.
 */

export interface NumericRange {
  readonly min?: number;
  readonly max?: number;
}

export type ValueType =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int' | 'float'; readonly range?: NumericRange }
  /** `length` bounds the number of characters. */
  | { readonly kind: 'string'; readonly length?: NumericRange }
  /** RFC 3339 text on the wire, ms since the epoch in the module. */
  | { readonly kind: 'timestamp' }
  /** `"18h"`-style text or whole ms on the wire, ms in the module. */
  | { readonly kind: 'duration' }
  | { readonly kind: 'enum'; readonly members: readonly string[] }
  | { readonly kind: 'list'; readonly element: ValueType }
  | { readonly kind: 'record'; readonly fields: readonly { readonly name: string; readonly type: ValueType }[] }
  | { readonly kind: 'optional'; readonly inner: ValueType };

/** The type written as `text`, or undefined when the text is not a type the language has. */
export function parseValueType(text: string): ValueType | undefined {
  const reader = new TypeReader(text);
  try {
    const type = reader.type();
    return reader.atEnd() ? type : undefined;
  } catch (error) {
    if (error instanceof UnreadableType) return undefined;
    throw error;
  }
}

class UnreadableType extends Error {}

const NAMED_TYPES = new Set(['bool', 'int', 'float', 'string', 'timestamp', 'duration']);
const TOKEN = /\s*("(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\([^)]*\)|[|?<>{}:,])/y;

/** A recursive-descent reader over the tokens of a type's text. */
class TypeReader {
  #position = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.text.slice(this.#position).trim() === '';
  }

  type(): ValueType {
    const base = this.#base();
    return this.#accept('?') ? { kind: 'optional', inner: base } : base;
  }

  #base(): ValueType {
    const token = this.#next();
    if (token.startsWith('"')) return this.#enum(token);
    if (token === '{') return this.#record();
    if (token === 'list') {
      this.#expect('<');
      const element = this.type();
      this.#expect('>');
      return { kind: 'list', element };
    }
    if (!NAMED_TYPES.has(token)) throw new UnreadableType();
    return this.#named(token);
  }

  #named(name: string): ValueType {
    const bounds = this.#peek()?.startsWith('(') === true ? parseRange(this.#next()) : undefined;
    switch (name) {
      case 'int':
      case 'float':
        return bounds === undefined ? { kind: name } : { kind: name, range: bounds };
      case 'string':
        return bounds === undefined ? { kind: 'string' } : { kind: 'string', length: bounds };
      default:
        if (bounds !== undefined) throw new UnreadableType();
        return { kind: name as 'bool' | 'timestamp' | 'duration' };
    }
  }

  #enum(first: string): ValueType {
    const members = [JSON.parse(first) as string];
    while (this.#accept('|')) {
      const member = this.#next();
      if (!member.startsWith('"')) throw new UnreadableType();
      members.push(JSON.parse(member) as string);
    }
    return { kind: 'enum', members };
  }

  #record(): ValueType {
    const fields: { name: string; type: ValueType }[] = [];
    while (!this.#accept('}')) {
      if (fields.length > 0) this.#expect(',');
      const name = this.#next();
      if (!/^[A-Za-z_]/.test(name)) throw new UnreadableType();
      this.#expect(':');
      fields.push({ name, type: this.type() });
    }
    return { kind: 'record', fields };
  }

  #peek(): string | undefined {
    TOKEN.lastIndex = this.#position;
    return TOKEN.exec(this.text)?.[1];
  }

  #next(): string {
    TOKEN.lastIndex = this.#position;
    const match = TOKEN.exec(this.text);
    if (match === null) throw new UnreadableType();
    this.#position = TOKEN.lastIndex;
    return match[1]!;
  }

  #accept(token: string): boolean {
    if (this.#peek() !== token) return false;
    this.#next();
    return true;
  }

  #expect(token: string): void {
    if (!this.#accept(token)) throw new UnreadableType();
  }
}

/** `(0..1)`, `(..100)`, `(20..)`, `(-1.5..2)`. */
function parseRange(token: string): NumericRange {
  const parts = token.slice(1, -1).split('..');
  if (parts.length !== 2) throw new UnreadableType();
  const [min, max] = parts.map(bound) as [number | undefined, number | undefined];
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

function bound(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new UnreadableType();
  return value;
}
