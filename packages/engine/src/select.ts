/**
 * The host side of a selection: validate and normalize the request against the scenario
 * (normalize-request.ts), cross into the isolate once to run stages 2–4 there
 * (selection-extension.ts), and return the typed result. Mistakes in the request and
 * failures of the sandbox come back as error values; only a bug in adec throws.
 */
import type { LoadedModule } from '@adec/runtime';
import { normalizeRequest } from './normalize-request.js';
import { scenarioCatalog, type ScenarioSpec } from './scenario-catalog.js';
import { selectionError, type SelectionError } from './selection-error.js';
import type { NormalizedRequest, SelectionRequest } from './selection-request.js';
import type { ModuleReference, Selection } from './selection-trace.js';

/** The hard limits of docs/spec/selection.md §7 for derive state (20 ms), guardrails (15 ms) and score/rank (30 ms). */
export const DEFAULT_SELECTION_TIME_LIMIT_MS = 65;

export type SelectResult = { readonly ok: true; readonly selection: Selection } | { readonly ok: false; readonly error: SelectionError };

/**
 * Selects one of `request.actions` in `request.scenario`. `module` must have been loaded with
 * `extensions: [SELECTION_EXTENSION]`. `timeLimitMs` bounds the one call into the sandbox.
 */
export async function select(module: LoadedModule, request: SelectionRequest, timeLimitMs = DEFAULT_SELECTION_TIME_LIMIT_MS): Promise<SelectResult> {
  const ingested = await ingest(module, request, timeLimitMs);
  return ingested.ok ? selectIngested(module, ingested.ingested, timeLimitMs) : ingested;
}

/** A request checked against its scenario and normalized (stage 1), ready for stages 2–4. */
export interface IngestedRequest {
  readonly scenario: ScenarioSpec;
  readonly request: NormalizedRequest;
}

export async function ingest(module: LoadedModule, request: SelectionRequest, timeLimitMs = DEFAULT_SELECTION_TIME_LIMIT_MS, memory: Readonly<Record<string, unknown>> = {}): Promise<{ readonly ok: true; readonly ingested: IngestedRequest } | { readonly ok: false; readonly error: SelectionError }> {
  const catalog = await scenarioCatalog(module, timeLimitMs);
  if (!catalog.ok) return catalog;
  const scenario = catalog.catalog.get(request.scenario);
  if (scenario === undefined) {
    const { world, version } = module.metadata.world;
    const known = [...catalog.catalog.keys()].join(', ') || 'none';
    return failure('UNKNOWN_SCENARIO', `module ${world}@${version} has no scenario \`${request.scenario}\` (scenarios: ${known})`);
  }
  const normalized = normalizeRequest(scenario, request, memory);
  if (!normalized.ok) {
    const [first, ...more] = normalized.problems;
    const rest = more.length === 0 ? '' : ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})`;
    return failure('INVALID_REQUEST', `invalid request for scenario \`${scenario.id}\`: ${first!.path}: ${first!.message}${rest}`, normalized.problems);
  }
  return { ok: true, ingested: { scenario, request: normalized.request } };
}

/** Stages 2–4 over an ingested request, in one crossing into the sandbox. */
export async function selectIngested(module: LoadedModule, { scenario, request }: IngestedRequest, timeLimitMs = DEFAULT_SELECTION_TIME_LIMIT_MS): Promise<SelectResult> {
  const crossing = await module.evaluator.call('__adec_select', [JSON.stringify(request)], timeLimitMs);
  if (!crossing.ok) return failure('SANDBOX_FAILURE', `selection in scenario \`${scenario.id}\` failed in the sandbox (${crossing.kind}): ${crossing.message}`);
  const selection = JSON.parse(crossing.value) as Omit<Selection, 'module'>;
  return { ok: true, selection: { ...selection, module: moduleReference(module) } };
}

function moduleReference(module: LoadedModule): ModuleReference {
  const { org, domain, world, version } = module.metadata.world;
  return { org, domain, world, version, module_hash: module.moduleHash };
}

function failure(code: SelectionError['code'], message: string, problems: SelectionError['problems'] = []): { readonly ok: false; readonly error: SelectionError } {
  return { ok: false, error: selectionError(code, message, problems) };
}
