/**
 * What the host needs to know about a module's scenarios to validate a selection request:
 * each scenario's version, its signals (type and default) and its action types' fields. Read
 * from the isolate once per loaded module (`__adec_scenarios`) and kept for the module's life.
 */
import type { LoadedModule } from '@adec/runtime';
import { selectionError, type SelectionError } from './selection-error.js';
import { parseValueType, type ValueType } from './value-type.js';

export interface SignalSpec {
  readonly name: string;
  readonly type: ValueType;
  /** Whether the scenario declares a default (wire form in `defaultValue`). */
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
}

export interface ScenarioSpec {
  readonly id: string;
  readonly version: string;
  /** In declaration order. */
  readonly signals: readonly SignalSpec[];
  /** Action type → the names of its fields. */
  readonly actionTypes: ReadonlyMap<string, readonly string[]>;
}

export type ScenarioCatalog = ReadonlyMap<string, ScenarioSpec>;

type CatalogResult = { readonly ok: true; readonly catalog: ScenarioCatalog } | { readonly ok: false; readonly error: SelectionError };

interface RawScenario {
  readonly version: string;
  readonly signals: readonly { readonly name: string; readonly type: string; readonly default?: unknown }[];
  readonly action_types: readonly { readonly name: string; readonly fields: readonly string[] }[];
}

const catalogs = new WeakMap<LoadedModule, ScenarioCatalog>();

/** The module's scenarios; only a successful read is kept, so a failed crossing is retried. */
export async function scenarioCatalog(module: LoadedModule, timeLimitMs: number): Promise<CatalogResult> {
  const known = catalogs.get(module);
  if (known !== undefined) return { ok: true, catalog: known };
  const crossing = await module.evaluator.call('__adec_scenarios', [], timeLimitMs);
  if (!crossing.ok) {
    // An exception here means the entry point is missing or the module's scenario data is not
    // what ABI 2 describes; anything else is the sandbox itself failing.
    return crossing.kind === 'exception'
      ? failure('MODULE_UNSUPPORTED', `the module cannot describe its scenarios (was it loaded with SELECTION_EXTENSION?): ${crossing.message}`)
      : failure('SANDBOX_FAILURE', `reading the module's scenarios failed in the sandbox (${crossing.kind}): ${crossing.message}`);
  }
  const parsed = parseCatalog(JSON.parse(crossing.value) as Record<string, RawScenario>);
  if (parsed.ok) catalogs.set(module, parsed.catalog);
  return parsed;
}

function parseCatalog(raw: Record<string, RawScenario>): CatalogResult {
  const catalog = new Map<string, ScenarioSpec>();
  for (const [id, scenario] of Object.entries(raw)) {
    const signals: SignalSpec[] = [];
    for (const signal of scenario.signals) {
      const type = parseValueType(signal.type);
      if (type === undefined) {
        return failure('MODULE_UNSUPPORTED', `signal \`${signal.name}\` of scenario \`${id}\` has the type \`${signal.type}\`, which this engine cannot read`);
      }
      signals.push({ name: signal.name, type, hasDefault: Object.hasOwn(signal, 'default'), defaultValue: signal.default });
    }
    const actionTypes = new Map(scenario.action_types.map((t) => [t.name, t.fields] as const));
    catalog.set(id, { id, version: scenario.version, signals, actionTypes });
  }
  return { ok: true, catalog };
}

function failure(code: SelectionError['code'], message: string): CatalogResult {
  return { ok: false, error: selectionError(code, message) };
}
