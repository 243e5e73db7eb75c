/**
 * Each skill's execution contract (SEC, docs/spec/skill-contract.md) as the host enforces it: read from the
 * isolate once per loaded module (`__adec_skills`), its output schema compiled with ajv once,
 * and kept for the module's life; a host reads it while the module loads (prepare-selection.ts). The functions of a skill (templates, prompt, invariants)
 * stay in the isolate; only their contract's data is here.
 */
import { checkSkillDescriptions, describeProblems, validate, type SkillType, type ValueSchema } from '@adec/abi';
import { timestampMs, type LoadedModule } from '@adec/runtime';
import { Ajv, type ValidateFunction } from 'ajv';
import { selectionError, type SelectionError } from '../selection-error.js';

export type { SkillType };

export interface Prohibition {
  readonly id: string;
  /** The pattern as the SEC writes it (`(?i)…`), for the audit record. */
  readonly pattern: string;
  readonly reason: string;
  /** Compiled from the pattern's JavaScript source and flags. */
  readonly regex: RegExp;
}

export interface SkillContract {
  readonly id: string;
  readonly version: string;
  readonly type: SkillType;
  readonly description: string | null;
  readonly hasPrompt: boolean;
  readonly timeoutMs: number;
  readonly hardLimitMs: number;
  /** The deterministic skill run when this one fails (tier 2); null for none. */
  readonly fallback: string | null;
  /** The only action fields and state values the skill receives (docs/spec/skill-contract.md §1: no raw user data). */
  readonly actionMetadataFields: readonly string[];
  readonly userStateFields: readonly string[];
  /** The payload's JSON Schema, as compiled; `validate` checks it. */
  readonly outputSchema: ValueSchema;
  readonly validate: ValidateFunction;
  readonly prohibitions: readonly Prohibition[];
  readonly invariants: readonly { readonly id: string; readonly description: string; readonly source: string }[];
  readonly templates: readonly string[];
}

export type SkillCatalog = ReadonlyMap<string, SkillContract>;

type CatalogResult = { readonly ok: true; readonly catalog: SkillCatalog } | { readonly ok: false; readonly error: SelectionError };

/**
 * By the module's evaluator: the catalog is what its isolate answered, and a module copied with
 * another isolation record (module-loader.ts) keeps its isolate, so it keeps what was prepared
 * at load (prepare-selection.ts).
 */
const catalogs = new WeakMap<LoadedModule['evaluator'], SkillCatalog>();

/**
 * One validator instance for every schema: `strict` refuses a schema keyword it does not know
 * (a compiler emitting one is a bug to see, not to ignore), `allErrors` reports every problem.
 * `date-time` is the one format the compiler emits (a `timestamp` field), checked as a context
 * attribute's timestamp is.
 */
const ajv = new Ajv({ strict: true, allErrors: true, formats: { 'date-time': (text: string) => timestampMs(text) !== undefined } });

export async function skillCatalog(module: LoadedModule, timeLimitMs: number): Promise<CatalogResult> {
  const known = catalogs.get(module.evaluator);
  if (known !== undefined) return { ok: true, catalog: known };
  const crossing = await module.evaluator.call('__adec_skills', [], timeLimitMs);
  if (!crossing.ok) {
    return crossing.kind === 'exception'
      ? failure('MODULE_UNSUPPORTED', `the module cannot describe its skills (was it loaded with SELECTION_EXTENSION?): ${crossing.message}`)
      : failure('SANDBOX_FAILURE', `reading the module's skills failed in the sandbox (${crossing.kind}): ${crossing.message}`);
  }
  const described = validate(checkSkillDescriptions, JSON.parse(crossing.value));
  if (!described.ok) return failure('MODULE_UNSUPPORTED', `the module's skills are not what this engine reads: ${describeProblems(described.problems)}`);
  const catalog = new Map<string, SkillContract>();
  for (const [id, raw] of Object.entries(described.value)) {
    if (raw.action_metadata_fields === undefined || raw.user_state_fields === undefined) {
      return failure('MODULE_UNSUPPORTED', `skill \`${id}\` does not list its input fields: the module was built by a compiler older than this engine`);
    }
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(raw.output_schema);
    } catch (error) {
      return failure('MODULE_UNSUPPORTED', `the output schema of skill \`${id}\` cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
    }
    catalog.set(id, {
      id,
      version: raw.version,
      type: raw.type,
      description: raw.description,
      hasPrompt: raw.has_prompt,
      timeoutMs: raw.timeout_ms,
      hardLimitMs: raw.hard_limit_ms,
      fallback: raw.fallback,
      actionMetadataFields: raw.action_metadata_fields,
      userStateFields: raw.user_state_fields,
      outputSchema: raw.output_schema,
      validate,
      prohibitions: raw.prohibitions.map((p) => ({ id: p.id, pattern: p.pattern, reason: p.reason, regex: new RegExp(p.source, p.flags) })),
      invariants: raw.invariants,
      templates: raw.templates,
    });
  }
  catalogs.set(module.evaluator, catalog);
  return { ok: true, catalog };
}

function failure(code: SelectionError['code'], message: string): CatalogResult {
  return { ok: false, error: selectionError(code, message) };
}
