/**
 * What the host needs to know about a module's scenarios to validate a selection request:
 * each scenario's version, its signals (a converter compiled from the JSON Schema the compiler
 * emits for each signal, and the default) and its action types' fields (a converter each, from
 * the same kind of schema). Read from the isolate
 * once per loaded module (`__adec_scenarios`), by a host while the module loads
 * (prepare-selection.ts), and kept for the module's life.
 */
import { checkScenarioDescriptions, describeProblems, validate, type ScenarioDescription, type ValueSchema } from '@adec/abi';
import { compileValueConverter, type LoadedModule, type ValueConverter } from '@adec/runtime';
import { selectionError, type SelectionError } from './selection-error.js';
import type { ExecutionMode } from './selection-request.js';

export interface SignalSpec {
  readonly name: string;
  /** The wire value's JSON Schema, as the compiler wrote it. */
  readonly schema: ValueSchema;
  /** Validates a wire value of the signal and converts it to the module's form. */
  readonly convert: ValueConverter;
  /** The signal's type is `T?`: absent means null. */
  readonly optional: boolean;
  /** Whether the scenario declares a default (wire form in `defaultValue`). */
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
}

export interface FieldSpec {
  readonly name: string;
  /** The wire value's JSON Schema, as the compiler wrote it. */
  readonly schema: ValueSchema;
  /** Validates a wire value of the field and converts it to the module's form. */
  readonly convert: ValueConverter;
  /** The field's type is `T?`: absent means null. */
  readonly optional: boolean;
}

export interface ScenarioSpec {
  readonly id: string;
  readonly version: string;
  readonly defaultMode: ExecutionMode;
  /** Action type → the skill it maps to (null: none). */
  readonly actionSkills: ReadonlyMap<string, string | null>;
  /** In declaration order. */
  readonly signals: readonly SignalSpec[];
  /** Action type → its fields, in declaration order. */
  readonly actionTypes: ReadonlyMap<string, readonly FieldSpec[]>;
}

export type ScenarioCatalog = ReadonlyMap<string, ScenarioSpec>;

type CatalogResult = { readonly ok: true; readonly catalog: ScenarioCatalog } | { readonly ok: false; readonly error: SelectionError };

/**
 * By the module's evaluator: the catalog is what its isolate answered, and a module copied with
 * another isolation record (module-loader.ts) keeps its isolate, so it keeps what was prepared
 * at load (prepare-selection.ts).
 */
const catalogs = new WeakMap<LoadedModule['evaluator'], ScenarioCatalog>();

/** The module's scenarios; only a successful read is kept, so a failed crossing is retried. */
export async function scenarioCatalog(module: LoadedModule, timeLimitMs: number): Promise<CatalogResult> {
  const known = catalogs.get(module.evaluator);
  if (known !== undefined) return { ok: true, catalog: known };
  const crossing = await module.evaluator.call('__adec_scenarios', [], timeLimitMs);
  if (!crossing.ok) {
    // An exception here means the entry point is missing or the module's scenario data is not
    // what ABI 2 describes; anything else is the sandbox itself failing.
    return crossing.kind === 'exception'
      ? failure('MODULE_UNSUPPORTED', `the module cannot describe its scenarios (was it loaded with SELECTION_EXTENSION?): ${crossing.message}`)
      : failure('SANDBOX_FAILURE', `reading the module's scenarios failed in the sandbox (${crossing.kind}): ${crossing.message}`);
  }
  const described = validate(checkScenarioDescriptions, JSON.parse(crossing.value));
  if (!described.ok) return failure('MODULE_UNSUPPORTED', `the module's scenarios are not what this engine reads: ${describeProblems(described.problems)}`);
  const parsed = parseCatalog(described.value);
  if (parsed.ok) catalogs.set(module.evaluator, parsed.catalog);
  return parsed;
}

function parseCatalog(raw: { readonly [id: string]: ScenarioDescription }): CatalogResult {
  const catalog = new Map<string, ScenarioSpec>();
  for (const [id, scenario] of Object.entries(raw)) {
    const signals: SignalSpec[] = [];
    for (const signal of scenario.signals) {
      const schema = signal.schema;
      if (schema === undefined) return olderCompiler(`signal \`${signal.name}\` of scenario \`${id}\``);
      signals.push({
        name: signal.name,
        schema,
        convert: compileValueConverter(schema),
        optional: Array.isArray(schema.anyOf),
        hasDefault: Object.hasOwn(signal, 'default'),
        defaultValue: signal.default,
      });
    }
    const actionTypes = new Map<string, FieldSpec[]>();
    const actionSkills = new Map<string, string | null>();
    for (const type of scenario.action_types) {
      actionSkills.set(type.name, type.skill ?? null);
      const fields: FieldSpec[] = [];
      for (const name of type.fields) {
        const schema = type.schemas !== undefined && Object.hasOwn(type.schemas, name) ? type.schemas[name] : undefined;
        if (schema === undefined) return olderCompiler(`field \`${name}\` of action type \`${type.name}\` in scenario \`${id}\``);
        fields.push({ name, schema, convert: compileValueConverter(schema), optional: Array.isArray(schema.anyOf) });
      }
      actionTypes.set(type.name, fields);
    }
    catalog.set(id, { id, version: scenario.version, defaultMode: scenario.default_mode, actionSkills, signals, actionTypes });
  }
  return { ok: true, catalog };
}

function olderCompiler(what: string): CatalogResult {
  return failure('MODULE_UNSUPPORTED', `${what} has no schema: the module was built by a compiler older than this engine`);
}

function failure(code: SelectionError['code'], message: string): CatalogResult {
  return { ok: false, error: selectionError(code, message) };
}
