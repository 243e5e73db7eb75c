/**
 * The static part of a loaded module as the host sees it: the world, and per action its rules
 * (with outcome, tier, suppressions, reads and time limit), aggregation, work_frame templates
 * and context attribute names. Copied out of the isolate once at load, validated, and never
 * re-read: the decision path only calls the module's functions.
 *
 * An ABI 1 module arrives already in ABI 2 shape: the legacy shim (legacy-abi1.ts) converts it
 * inside the isolate, before anything reads it.
 */
import {
  checkModuleMetadataJson,
  describeProblems,
  validate,
  workFrameTemplateFields,
  type ActionEntry,
  type AggregationSpec,
  type DurationShapeEntry,
  type ModuleMetadataJson,
  type WorkFrameTemplate,
  type WorkFrameTemplates,
  type WorldIdentity,
} from '@adec/abi';
import { isStatus, type Status, type Tier } from '../decide/status.js';

/** An action's aggregation; the per-rule weights are on its rules (`RuleSpec.weight`). */
export type Aggregation = Omit<AggregationSpec, 'weights'>;

export interface RuleSpec {
  readonly id: string;
  readonly outcome: Status;
  readonly severity: Tier;
  /** Rules this one removes from the matched set when it matches (never a t1 rule). */
  readonly suppresses: readonly string[];
  /** The context attributes the rule reads (its trace records their values), as an index into the action's `readSets`. */
  readonly readSet: number;
  readonly timeoutMs: number;
  /** weighted_sum_threshold only; 1 unless the rule says otherwise. */
  readonly weight: number;
}

export interface ActionSpec {
  readonly name: string;
  /** Evaluation order: t1, t2, t3, declaration order within a tier. */
  readonly rules: readonly RuleSpec[];
  /**
   * The distinct `reads` of the action's rules. Rules usually share a few sets, so a decision
   * records the values of each set once and every trace of that set refers to the same record.
   */
  readonly readSets: readonly (readonly string[])[];
  readonly aggregation: Aggregation;
  readonly workFrames: WorkFrameTemplates;
  readonly computed: readonly string[];
  readonly supplied: readonly string[];
  readonly system: readonly string[];
  /**
   * The attributes the rules and derivations read: only these cross into the sandbox, so
   * attributes a request supplies but nothing reads cost the predicates nothing. Undefined for
   * modules built before the compiler listed them: then every attribute crosses.
   */
  readonly reads: readonly string[] | undefined;
  /** The world's default time limit for one predicate (and one derivation). */
  readonly predicateTimeoutMs: number;
  /**
   * The attributes that hold durations, and where in their values: traces show those as ISO 8601
   * durations. Empty for modules built before the compiler listed them: their traces keep the
   * milliseconds they always recorded, so a stored decision of such a module replays identically.
   */
  readonly durations: ReadonlyMap<string, DurationShape>;
}

/** Where a value holds durations: itself (`true`), its list's elements, or some of its record's fields. */
export type DurationShape = true | { readonly items: DurationShape } | { readonly fields: ReadonlyMap<string, DurationShape> };

export interface ModuleMetadata {
  readonly abiVersion: 1 | 2;
  readonly world: WorldIdentity;
  readonly actions: ReadonlyMap<string, ActionSpec>;
}

/**
 * Validates the metadata JSON the isolate returned (@adec/abi's `ModuleMetadataJson`). A module
 * that does not implement a known ABI, or whose tables disagree with each other, is refused
 * with a message naming the problem and its path.
 */
export function parseModuleMetadata(json: string): { ok: true; metadata: ModuleMetadata } | { ok: false; message: string } {
  const parsed = parseJson(json);
  if (!parsed.ok) return { ok: false, message: `the module does not implement a supported ABI: its metadata is not JSON: ${parsed.message}` };
  const checked = validate(checkModuleMetadataJson, parsed.value);
  if (!checked.ok) return { ok: false, message: `the module does not implement a supported ABI: ${describeProblems(checked.problems)}` };
  return { ok: true, metadata: moduleMetadata(checked.value) };
}

function parseJson(json: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function moduleMetadata(raw: ModuleMetadataJson): ModuleMetadata {
  const { org, domain, world = domain, version } = raw.world;
  const actions = new Map<string, ActionSpec>();
  for (const [name, entry] of Object.entries(raw.actions)) actions.set(name, actionSpec(name, entry, raw));
  return { abiVersion: raw.abi_version, world: { org, domain, world, version }, actions };
}

function actionSpec(name: string, entry: ActionEntry, tables: ModuleMetadataJson): ActionSpec {
  const predicateTimeoutMs = entry.predicate_timeout_ms;
  const aggregation = entry.aggregation;
  const ruleTimeouts = entry.rule_timeout_ms ?? {};
  const weights = aggregation.mode === 'weighted_sum_threshold' ? (aggregation.weights ?? {}) : {};
  const readSets = new ReadSets();
  const rules = entry.rules.map((id): RuleSpec => ({
    id,
    // checkModuleMetadataJson checked that every listed rule has these; the fallbacks are the most restrictive values.
    outcome: ownValue(tables.outcome, id) ?? 'RED',
    severity: ownValue(tables.severity, id) ?? 't1',
    suppresses: ownValue(tables.suppresses, id) ?? [],
    readSet: readSets.intern(ownValue(tables.reads, id) ?? []),
    timeoutMs: ownValue(ruleTimeouts, id) ?? predicateTimeoutMs,
    weight: ownValue(weights, id) ?? 1,
  }));
  return {
    name,
    rules,
    readSets: readSets.sets,
    aggregation: aggregationOf(aggregation),
    workFrames: workFrames(entry.work_frames ?? {}),
    computed: entry.computed ?? [],
    supplied: entry.supplied ?? [],
    system: entry.system ?? [],
    reads: entry.reads,
    predicateTimeoutMs,
    durations: shapeFields(entry.durations ?? {}),
  };
}

/** `table[key]` when the table has it as its own entry (a rule may be named `__proto__`). */
function ownValue<T>(table: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function aggregationOf(spec: AggregationSpec): Aggregation {
  switch (spec.mode) {
    case 'winner_takes_all':
      return { mode: spec.mode };
    case 'vote_of_n':
      return { mode: spec.mode, ...(spec.n !== undefined && { n: spec.n }) };
    case 'weighted_sum_threshold':
      return { mode: spec.mode, ...(spec.threshold !== undefined && { threshold: spec.threshold }) };
  }
}

/** The templates' own fields only: a template is spread into a decision's work_frame. */
function workFrames(templates: WorkFrameTemplates): WorkFrameTemplates {
  const frames: { [S in Status]?: WorkFrameTemplate } = {};
  for (const status of Object.keys(templates).filter(isStatus)) {
    const template = templates[status];
    if (template !== undefined) frames[status] = workFrameTemplateFields(template);
  }
  return frames;
}

function shapeFields(fields: { readonly [name: string]: DurationShapeEntry }): Map<string, DurationShape> {
  return new Map(Object.entries(fields).map(([name, shape]) => [name, durationShape(shape)]));
}

function durationShape(shape: DurationShapeEntry): DurationShape {
  if (shape === true) return true;
  return 'items' in shape ? { items: durationShape(shape.items) } : { fields: shapeFields(shape.fields) };
}

/** Distinct read sets, in order of first use; equal sets become one shared array. */
class ReadSets {
  readonly sets: (readonly string[])[] = [];
  readonly #index = new Map<string, number>();

  /** The index of `reads` among the sets, added if new. */
  intern(reads: readonly string[]): number {
    // Names are identifiers, so a NUL separator cannot make two different sets collide.
    const key = reads.join('\0');
    let readSet = this.#index.get(key);
    if (readSet === undefined) {
      readSet = this.sets.push(Object.freeze([...reads])) - 1;
      this.#index.set(key, readSet);
    }
    return readSet;
  }
}
