/**
 * What a validator reports about a value that is not what the ABI describes: a code to act
 * on, the JSON path of the offending value, and a message naming both. Validators return
 * these as values and never throw, whatever they are given.
 */
export type AbiProblemCode =
  /** A required field is absent. */
  | 'FIELD_MISSING'
  /** A value of the wrong JSON type: a number where a string belongs, a list for an object. */
  | 'WRONG_TYPE'
  /** A value of the right type that the ABI does not allow (an unknown status, a negative count, a malformed hash). */
  | 'VALUE_NOT_ALLOWED'
  /** `abi_version` names an ABI this runtime does not read. */
  | 'ABI_VERSION_UNSUPPORTED'
  /** A schema nested deeper than validation follows. */
  | 'NESTED_TOO_DEEP';

export interface AbiProblem {
  readonly code: AbiProblemCode;
  /** JSON path from the validated value's root, e.g. `actions.refund.context_schema.properties.amount.type` or `rules[2].outcome`; empty for the root. */
  readonly path: string;
  /** Lowercase, no final period, the path in backticks. */
  readonly message: string;
}

export type AbiResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly AbiProblem[] };

/**
 * Past this many problems a validator keeps walking but stops recording: a large malformed
 * manifest is refused with its first problems, not with a message the size of the manifest.
 */
export const MAX_REPORTED_PROBLEMS = 20;

/** The problems found so far; counts every one, keeps the first MAX_REPORTED_PROBLEMS. */
export class AbiProblems {
  readonly #list: AbiProblem[] = [];
  #count = 0;

  /** How many problems were found, including those not kept. */
  get count(): number {
    return this.#count;
  }

  get list(): readonly AbiProblem[] {
    return this.#list;
  }

  add(code: AbiProblemCode, path: string, message: string): false {
    this.#count += 1;
    if (this.#list.length < MAX_REPORTED_PROBLEMS) this.#list.push({ code, path, message });
    return false;
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of `key` inside the value at `path`: `a.b`, `a[3]`, or `a["two words"]` for a key that is not an identifier. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** How a path reads in a message. */
export function pathText(path: string): string {
  return path === '' ? 'the value' : `\`${path}\``;
}

/** How a wrong value reads in "…, expected …": `the number 3`, `string "x"`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** One line naming the first problem, and how many more there are. */
export function describeProblems(problems: readonly AbiProblem[]): string {
  const [first] = problems;
  if (first === undefined) return 'has no problem';
  return problems.length === 1 ? first.message : `${first.message} (and ${problems.length - 1} more problem${problems.length === 2 ? '' : 's'})`;
}
