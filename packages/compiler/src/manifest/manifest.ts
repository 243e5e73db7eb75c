/**
 * `manifest.json` (pipeline step 5): what a runtime needs to know about a bundle without
 * running it, and what `adec sign` signs. Its shape is @adec/abi's `Manifest`, the one the
 * runtime reads it as. No absolute paths: spans are relative to the world directory.
 */
import { ABI_VERSION, type Manifest, type ManifestAction, type ManifestSpan } from '@adec/abi';
import type { Span } from '@adec/diagnostics';
import { rulesInEvaluationOrder } from '../generate/emit-actions.js';
import { relativeSourcePath } from '../generate/source-location.js';
import type { CheckedAction, CheckedWorld, JsonValue } from '../model/index.js';
import { contextSchema } from './context-schema.js';
import { skillContractDocuments } from './skill-contract-documents.js';

export interface ManifestOptions {
  /** sha256 of the bundle: hex, or already prefixed `sha256:<hex>`. */
  readonly moduleHash: string;
  readonly sourceHash: string;
  readonly compilerVersion: string;
  /** Source paths relative to the world directory. */
  readonly sources: readonly string[];
  /** Maps a span's file to its path relative to the world; defaults to matching `sources`. */
  readonly relativePath?: (file: string) => string;
}

export function buildManifest(world: CheckedWorld, options: ManifestOptions): Manifest {
  const relative = options.relativePath ?? ((file: string) => relativeSourcePath(file, options.sources));
  const { org, domain, world: id, version } = world.header;
  const actions: Record<string, ManifestAction> = {};
  for (const action of world.actions) setOwn(actions, action.name, manifestAction(action));
  return {
    abi_version: ABI_VERSION,
    world: { org, domain, world: id, version },
    module_hash: prefixedHash(options.moduleHash, 'moduleHash'),
    source_hash: prefixedHash(options.sourceHash, 'sourceHash'),
    compiler: { name: 'adec', version: options.compilerVersion },
    sources: [...options.sources],
    rules: world.actions.flatMap((action) =>
      rulesInEvaluationOrder(action).map((rule) => ({
        id: rule.id,
        action: action.name,
        outcome: rule.outcome,
        severity: rule.severity,
        span: manifestSpan(rule.span, relative),
      })),
    ),
    actions,
    skills: world.skills.map((s) => ({ id: s.id, version: s.version, type: s.type })),
    scenarios: world.scenarios.map((s) => ({ id: s.id, version: s.version })),
    skill_contracts: skillContractDocuments(world),
  };
}

/**
 * Two-space JSON with a trailing newline. Keys are sorted (by UTF-16 code unit) at every
 * level, so the bytes depend only on the manifest's content, never on how it was built.
 */
export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(sortKeys(manifest as unknown as JsonValue), null, 2)}\n`;
}

function manifestAction(action: CheckedAction): ManifestAction {
  const rules = rulesInEvaluationOrder(action);
  const aggregation = action.aggregation;
  const weighted = aggregation.mode === 'weighted_sum_threshold' || rules.some((r) => r.weight !== undefined);
  const weights: Record<string, number> = {};
  for (const rule of rules) setOwn(weights, rule.id, rule.weight ?? 1);
  return {
    aggregation: {
      mode: aggregation.mode,
      ...(aggregation.mode === 'vote_of_n' && { n: aggregation.n }),
      ...(aggregation.mode === 'weighted_sum_threshold' && { threshold: aggregation.threshold }),
      ...(weighted && { weights }),
    },
    rule_count: rules.length,
    context_schema: contextSchema(action),
  };
}

function manifestSpan(span: Span, relative: (file: string) => string): ManifestSpan {
  return { file: relative(span.file), line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn };
}

function prefixedHash(hash: string, name: string): string {
  const hex = hash.startsWith('sha256:') ? hash.slice('sha256:'.length) : hash;
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`adec bug: ${name} is not a sha256 hex digest: \`${hash}\``);
  return `sha256:${hex}`;
}

function sortKeys(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortKeys);
  const object = value as { readonly [key: string]: JsonValue };
  const sorted: Record<string, JsonValue> = {};
  for (const key of Object.keys(object).sort()) {
    const child = object[key];
    if (child !== undefined) setOwn(sorted, key, sortKeys(child));
  }
  return sorted;
}

/**
 * `record[key] = value` for a key from the world (an action or rule named `__proto__`): a plain
 * assignment to `__proto__` would set the prototype instead of adding an entry.
 */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
