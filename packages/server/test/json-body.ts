/**
 * Reading the service's JSON bodies in tests: parsed into `unknown`, then read along a path of
 * member names and array indexes. Each step checks that the value holds the member, so a body
 * of the wrong shape fails the test naming the path it lacks, never by reading `undefined` on.
 */

/** A JSON object as a test reads it: members of unknown type, narrowed where they are used. */
export type JsonObject = Readonly<Record<string, unknown>>;

export type JsonPath = readonly (string | number)[];

/** The body of `response` as a JSON object. */
export async function jsonObject(response: Response): Promise<JsonObject> {
  return objectAt(await response.json());
}

/** The value at `path` in `value`. */
export function at(value: unknown, ...path: JsonPath): unknown {
  const found = lookup(value, path);
  if (found.missing !== undefined) throw new Error(`the body has no ${describePath(path.slice(0, found.missing + 1))}`);
  return found.value;
}

/** The value at `path` in `value`, or undefined where the body has no such member. */
export function optionalAt(value: unknown, ...path: JsonPath): unknown {
  return lookup(value, path).value;
}

/** The value at `path`, or the index of the first step the body lacks. */
function lookup(value: unknown, path: JsonPath): { readonly value: unknown; readonly missing?: number } {
  let current = value;
  for (const [i, step] of path.entries()) {
    if (typeof step === 'number' && Array.isArray(current) && step < current.length) current = current[step];
    else if (typeof step === 'string' && isObject(current) && Object.hasOwn(current, step)) current = current[step];
    else return { value: undefined, missing: i };
  }
  return { value: current };
}

/** The object at `path` in `value`. */
export function objectAt(value: unknown, ...path: JsonPath): JsonObject {
  const found = at(value, ...path);
  if (!isObject(found)) throw new Error(`${describePath(path)} is not an object: ${JSON.stringify(found)}`);
  return found;
}

/** The array at `path` in `value`. */
export function arrayAt(value: unknown, ...path: JsonPath): readonly unknown[] {
  const found = at(value, ...path);
  if (!Array.isArray(found)) throw new Error(`${describePath(path)} is not an array: ${JSON.stringify(found)}`);
  return found;
}

/** The string at `path` in `value`. */
export function stringAt(value: unknown, ...path: JsonPath): string {
  const found = at(value, ...path);
  if (typeof found !== 'string') throw new Error(`${describePath(path)} is not a string: ${JSON.stringify(found)}`);
  return found;
}

/** The number at `path` in `value`. */
export function numberAt(value: unknown, ...path: JsonPath): number {
  const found = at(value, ...path);
  if (typeof found !== 'number') throw new Error(`${describePath(path)} is not a number: ${JSON.stringify(found)}`);
  return found;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describePath(path: JsonPath): string {
  return `$${path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`;
}
