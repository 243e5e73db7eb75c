/**
 * The static part of a loaded module as the host sees it: the world, and per action its rules
 * (with outcome, tier, suppressions, reads and time limit), aggregation, work_frame templates
 * and context attribute names. Copied out of the isolate once at load, validated, and never
 * re-read: the decision path only calls the module's functions.
 *
 * An ABI 1 module arrives already in ABI 2 shape: the legacy shim (legacy-abi1.ts) converts it
 * inside the isolate, before anything reads it.
 */
import { AbiProblems, checkWorkFrameTemplates, describeProblems, workFrameTemplateFields, type AggregationMode, type WorkFrameTemplate, type WorkFrameTemplates, type WorldIdentity } from '@adec/abi';
import { isStatus, isTier, type Status, type Tier } from '../decide/status.js';

export type { AggregationMode, WorkFrameTemplate };

export interface Aggregation {
  readonly mode: AggregationMode;
  /** vote_of_n: how many matched rules must concur. */
  readonly n?: number;
  /** weighted_sum_threshold: the weight a status needs. */
  readonly threshold?: number;
}

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

export const MAX_PREDICATE_TIMEOUT_MS = 1_000;

type Raw = Record<string, unknown>;

/**
 * Validates the metadata JSON the isolate returned. A module that does not implement a known
 * ABI, or whose tables disagree with each other, is refused with a message naming the problem.
 */
export function parseModuleMetadata(json: string): { ok: true; metadata: ModuleMetadata } | { ok: false; message: string } {
  try {
    return { ok: true, metadata: readMetadata(JSON.parse(json) as Raw) };
  } catch (error) {
    return { ok: false, message: `the module does not implement a supported ABI: ${(error as Error).message}` };
  }
}

function readMetadata(raw: Raw): ModuleMetadata {
  const abiVersion = raw['abi_version'];
  if (abiVersion !== 1 && abiVersion !== 2) throw new Error(`_ABI_VERSION is ${JSON.stringify(abiVersion)}, expected 1 or 2`);
  const world = object(raw['world'], '_WORLD');
  const worldId: WorldIdentity = {
    org: string(world['org'], '_WORLD.org'),
    domain: string(world['domain'], '_WORLD.domain'),
    world: typeof world['world'] === 'string' ? world['world'] : string(world['domain'], '_WORLD.domain'),
    version: string(world['version'], '_WORLD.version'),
  };
  const classify = ruleClassification(raw);
  const suppresses = object(raw['suppresses'], '_RULE_SUPPRESSES');
  const reads = object(raw['reads'], '_RULE_READS');
  const predicates = new Set(strings(raw['predicates'], '_RULE_FUNCTIONS'));
  const actions = new Map<string, ActionSpec>();
  for (const [name, value] of Object.entries(object(raw['actions'], '_ACTIONS'))) {
    const action = readAction(name, object(value, `_ACTIONS.${name}`), classify, suppresses, reads);
    const missing = action.rules.find((rule) => !predicates.has(rule.id));
    if (missing !== undefined) throw new Error(`rule ${missing.id} of action ${name} has no predicate in _RULE_FUNCTIONS`);
    actions.set(name, action);
  }
  return { abiVersion, world: worldId, actions };
}

type Classification = (id: string) => { outcome: Status; severity: Tier };

function ruleClassification(raw: Raw): Classification {
  const outcomes = object(raw['outcome'], '_RULE_OUTCOME');
  const severities = object(raw['severity'], '_RULE_SEVERITY');
  return (id) => {
    const outcome = outcomes[id];
    const severity = severities[id];
    if (!isStatus(outcome)) throw new Error(`_RULE_OUTCOME.${id} is ${JSON.stringify(outcome)}`);
    if (!isTier(severity)) throw new Error(`_RULE_SEVERITY.${id} is ${JSON.stringify(severity)}`);
    return { outcome, severity };
  };
}

function readAction(name: string, raw: Raw, classify: Classification, suppresses: Raw, reads: Raw): ActionSpec {
  const where = `_ACTIONS.${name}`;
  const predicateTimeoutMs = timeout(raw['predicate_timeout_ms'], `${where}.predicate_timeout_ms`);
  const ruleTimeouts = raw['rule_timeout_ms'] === undefined ? {} : object(raw['rule_timeout_ms'], `${where}.rule_timeout_ms`);
  const rawAggregation = object(raw['aggregation'], `${where}.aggregation`);
  const aggregation = readAggregation(rawAggregation, where);
  const weights = aggregation.mode === 'weighted_sum_threshold' ? object(rawAggregation['weights'] ?? {}, `${where}.aggregation.weights`) : {};
  const readSets = new ReadSets();
  const rules = strings(raw['rules'], `${where}.rules`).map((id): RuleSpec => ({
    id,
    ...classify(id),
    suppresses: Object.hasOwn(suppresses, id) ? strings(suppresses[id], `_RULE_SUPPRESSES.${id}`) : [],
    readSet: readSets.intern(Object.hasOwn(reads, id) ? strings(reads[id], `_RULE_READS.${id}`) : []),
    timeoutMs: Object.hasOwn(ruleTimeouts, id) ? timeout(ruleTimeouts[id], `${where}.rule_timeout_ms.${id}`) : predicateTimeoutMs,
    weight: Object.hasOwn(weights, id) ? number(weights[id], `weights.${id}`) : 1,
  }));
  return {
    name,
    rules,
    readSets: readSets.sets,
    aggregation,
    workFrames: raw['work_frames'] === undefined ? {} : readWorkFrames(raw['work_frames'], `${where}.work_frames`),
    computed: optionalStrings(raw['computed'], `${where}.computed`),
    supplied: optionalStrings(raw['supplied'], `${where}.supplied`),
    system: optionalStrings(raw['system'], `${where}.system`),
    reads: raw['reads'] === undefined ? undefined : strings(raw['reads'], `${where}.reads`),
    predicateTimeoutMs,
    durations: raw['durations'] === undefined ? new Map() : shapeFields(object(raw['durations'], `${where}.durations`), `${where}.durations`),
  };
}

function shapeFields(raw: Raw, where: string): Map<string, DurationShape> {
  return new Map(Object.entries(raw).map(([name, shape]) => [name, durationShape(shape, `${where}.${name}`)]));
}

function durationShape(raw: unknown, where: string): DurationShape {
  if (raw === true) return true;
  const shape = object(raw, where);
  if (Object.hasOwn(shape, 'items')) return { items: durationShape(shape['items'], `${where}.items`) };
  if (Object.hasOwn(shape, 'fields')) return { fields: shapeFields(object(shape['fields'], `${where}.fields`), `${where}.fields`) };
  throw new Error(`${where} is not a duration shape`);
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

function readAggregation(raw: Raw, where: string): Aggregation {
  const mode = raw['mode'];
  switch (mode) {
    case 'winner_takes_all':
      return { mode };
    case 'vote_of_n':
      return { mode, n: number(raw['n'], `${where}.aggregation.n`) };
    case 'weighted_sum_threshold':
      return { mode, threshold: number(raw['threshold'], `${where}.aggregation.threshold`) };
    default:
      throw new Error(`${where}.aggregation.mode is ${JSON.stringify(mode)}`);
  }
}

function readWorkFrames(raw: unknown, where: string): WorkFrameTemplates {
  const problems = new AbiProblems();
  if (!checkWorkFrameTemplates(raw, where, problems)) throw new Error(describeProblems(problems.list));
  const frames: { [S in Status]?: WorkFrameTemplate } = {};
  for (const status of Object.keys(raw).filter(isStatus)) {
    const template = raw[status];
    if (template !== undefined) frames[status] = workFrameTemplateFields(template);
  }
  return frames;
}

function object(value: unknown, where: string): Raw {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} is not an object`);
  return value as Raw;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where} is not a string`);
  return value;
}

function number(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${where} is not a number`);
  return value;
}

function timeout(value: unknown, where: string): number {
  const ms = number(value, where);
  if (ms <= 0 || ms > MAX_PREDICATE_TIMEOUT_MS) throw new Error(`${where} is ${ms} ms, outside 0 < t ≤ ${MAX_PREDICATE_TIMEOUT_MS}`);
  return ms;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new Error(`${where} is not a list of strings`);
  return value as string[];
}

function optionalStrings(value: unknown, where: string): string[] {
  return value === undefined ? [] : strings(value, where);
}
