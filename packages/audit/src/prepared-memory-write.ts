/**
 * A memory write checked and serialized before it reaches the database, as prepared-entry.ts does
 * for records: keys are short plain strings, and each value is one JSON can hold exactly, so
 * that what a later read gives back is what was written. A write with one bad key or value is
 * refused whole, before anything of it is written.
 */
import type { AuditFailure } from './audit-store.js';
import { textProblem } from './prepared-entry.js';
import { storeFailure } from './store-options.js';

/** A user's memory in one scenario: what every entry of it is stored under. */
export interface MemoryKey {
  readonly tenant: string;
  readonly userId: string;
  readonly scenario: string;
}

export interface PreparedMemoryWrite extends MemoryKey {
  readonly outcomeId: string;
  /** Each signal's name and its value's JSON text. */
  readonly signals: readonly (readonly [string, string])[];
}

/** The deepest nesting of arrays and objects a value may have. */
const MAX_DEPTH = 100;

export function checkMemoryKey(tenant: unknown, userId: unknown, scenario: unknown): { readonly ok: true; readonly key: MemoryKey } | AuditFailure {
  for (const [name, value] of [['tenant', tenant], ['user id', userId], ['scenario', scenario]] as const) {
    const problem = textProblem(value);
    if (problem !== undefined) return storeFailure('INVALID_ENTRY', `the memory's ${name} ${problem}`);
  }
  return { ok: true, key: { tenant: tenant as string, userId: userId as string, scenario: scenario as string } };
}

export function prepareMemoryWrite(tenant: unknown, userId: unknown, scenario: unknown, values: unknown, outcomeId: unknown): { readonly ok: true; readonly write: PreparedMemoryWrite } | AuditFailure {
  const key = checkMemoryKey(tenant, userId, scenario);
  if (!key.ok) return key;
  const outcomeProblem = textProblem(outcomeId);
  if (outcomeProblem !== undefined) return storeFailure('INVALID_ENTRY', `the memory's outcome id ${outcomeProblem}`);
  if (!isPlainObject(values)) return storeFailure('INVALID_ENTRY', `the memory's values must be an object of signal values, found ${describe(values)}`);
  const signals: [string, string][] = [];
  // Own enumerable string-keyed members: what JSON.stringify writes.
  for (const [signal, value] of Object.entries(values)) {
    const nameProblem = textProblem(signal);
    if (nameProblem !== undefined) return storeFailure('INVALID_ENTRY', `the memory's signal name \`${shown(signal)}\` ${nameProblem}`);
    const valueProblem = jsonProblem(value);
    if (valueProblem !== undefined) return storeFailure('INVALID_ENTRY', `the value of signal \`${shown(signal)}\` is not JSON: ${valueProblem}`);
    signals.push([signal, JSON.stringify(value)]);
  }
  return { ok: true, write: { ...key.key, outcomeId: outcomeId as string, signals } };
}

/**
 * Why JSON cannot hold `value` exactly, or undefined when it can. JSON.stringify would not refuse
 * most of these: it writes NaN as null, drops undefined members and turns a Date into a string,
 * so the value read back would not be the one written.
 */
function jsonProblem(value: unknown): string | undefined {
  try {
    return problemAt(value, '', new Set(), 0);
  } catch (error) {
    // A getter that throws, a proxy that refuses to be listed.
    return `reading it failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function problemAt(value: unknown, path: string, ancestors: Set<object>, depth: number): string | undefined {
  // "it is NaN" for the value itself, "it holds NaN at `.scores[2]`" for a part of it.
  const holds = (what: string) => (path === '' ? `it is ${what}` : `it holds ${what} at \`${path.length > 80 ? `${path.slice(0, 80)}…` : path}\``);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : holds(String(value));
  if (typeof value !== 'object') return holds(describe(value));
  if (ancestors.has(value)) return holds('a reference to an object that contains it');
  if (depth >= MAX_DEPTH) return holds(`arrays or objects nested more than ${MAX_DEPTH} deep`);
  if (!Array.isArray(value) && !isPlainObject(value)) return holds(describe(value));
  ancestors.add(value);
  // Member by member, not a list of them first: an array may be sparse with a length of billions.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = problemAt(value[index], `${path}[${index}]`, ancestors, depth + 1);
      if (problem !== undefined) return problem;
    }
  } else {
    for (const [key, member] of Object.entries(value)) {
      const problem = problemAt(member, `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, ancestors, depth + 1);
      if (problem !== undefined) return problem;
    }
  }
  ancestors.delete(value);
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

/** A signal name as a message shows it: escaped, and cut short when long. */
function shown(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name).slice(1, -1);
}
