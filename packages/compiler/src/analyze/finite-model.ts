/**
 * A finite model of one or more conditions: finitely many assignments that, between them,
 * show every way the conditions can evaluate. Both condition analyses are questions about
 * it: "always true / false" (constant-conditions.ts) and "whenever R matches S matches"
 * (never-decides.ts).
 *
 * Atoms. A condition is cut into atoms:
 * - *attributes*: a context attribute, signal, state value or field path (`payload.x`,
 *   `action.intensity`) of a scalar type (bool, int, float, string, enum, timestamp,
 *   duration, or one of these optional), read through *order-only* terms: the attribute
 *   itself, constants, `a ?? b`, `min`, `max`, `clamp`, `if c then a else b`;
 * - *opaque conditions*: any other boolean sub-expression (`CONTAINS`, `MATCHES`,
 *   `LENGTH`, a comparison involving arithmetic on an attribute, a list attribute, …). It
 *   becomes a free boolean, shared by structurally equal expressions.
 * A computed attribute or derived state value whose derivation is itself modellable is
 * inlined (the interpreter evaluates its derivation); otherwise it is an attribute of its
 * declared type.
 *
 * Values. Attributes compared with each other form a group; each group's constants
 * (literals it is compared with, declared range bounds) split the domain into regions, and
 * each attribute gets representatives covering every region, k per open region where k is
 * the number of attributes in the group, so every ordering of the attributes among
 * themselves and the constants is represented:
 * - int, timestamp, duration: the integers within k of every constant (c-1, c, c+1 for one
 *   attribute), inside the declared range;
 * - float: the constants, k points inside each gap between them and k beyond each end;
 * - string: every literal it is compared with plus k other strings; enum: every member;
 *   bool: both values; optional: also null (absent); opaque: both values.
 * Order-only terms keep a condition's value a function of those orderings, so the finite
 * model is exact for the attributes; opaque atoms over-approximate (they range over both
 * values even where the real expression could not), so a conclusion that holds for every
 * assignment of the model holds at run time: the analyses never report a false warning,
 * they only miss some. Models with more than `MAX_ASSIGNMENTS` assignments are not built
 * (the caller then makes no claim).
 *
 * Enumeration. An assignment is an array of values indexed by variable (*slots*), advanced
 * in place like an odometer, variable 0 fastest (`forEachSlots`, the order of
 * `forEachAssignment`). Conditions are compiled once per model into closures over slots
 * (`compile`, compile.ts). `forEachValue` also cuts a condition at its top-level `and`s and,
 * when a conjunct reading no variable below slot m is false, reports the rest of the block
 * in which slots m and up stay fixed as one visit with its size: the condition is false on
 * all of it. `forEachAssignment` / `keyedEnvironment` (environments for the interpreter,
 * evaluate.ts) remain as the reference the tests compare with.
 */
import { builtin, childExpressions, type CheckedExpr, type NumericRange, type RefExpr, type Type } from '../model/index.js';
import { compileExpr, type Binding, type Evaluator } from './compile.js';
import { evaluate, UNKNOWN, type Environment, type Value } from './evaluate.js';

export { childExpressions } from '../model/index.js';

export const MAX_ASSIGNMENTS = 4096;

/** Derivations of computed attributes and derived state, by `root:name`. */
export type Definitions = ReadonlyMap<string, CheckedExpr>;

export const NO_DEFINITIONS: Definitions = new Map();

export function definitionKey(root: RefExpr['root'], name: string): string {
  return `${root}:${name}`;
}

export interface FiniteModel {
  /** Number of assignments. */
  readonly size: number;
  /** Variable keys, for tests and debugging: `context.age`, `opaque:{…}`. */
  readonly keys: readonly string[];
  /**
   * Calls `visit` with an environment per assignment until it returns `false`; `current`
   * gives the assignment itself, by variable key.
   */
  forEachAssignment(visit: (env: Environment, current: () => Map<string, Value>) => boolean | undefined): void;
  /**
   * An environment reading variables from `values` by key (`UNKNOWN` when absent): a
   * witness found in one model, evaluated against the conditions of another.
   */
  keyedEnvironment(values: ReadonlyMap<string, Value>): Environment;
  /**
   * `expr` (one of the model's conditions, or part of one) compiled against the model's
   * bindings (compile.ts): its value on an assignment given as slots, variable index →
   * value, in `keys` order. Memoized per expression.
   */
  compile(expr: CheckedExpr): Evaluator;
  /**
   * The fast enumeration: calls `visit` with the slots of each assignment, in the order of
   * `forEachAssignment`, until it returns `false`. The array is reused: copy it to keep it.
   */
  forEachSlots(visit: (slots: readonly Value[]) => boolean | undefined): void;
  /**
   * `condition`'s value on every assignment, in the order of `forEachAssignment`, with
   * whole blocks of assignments on which it is false reported at once: `visit(slots, value,
   * count)` stands for `count` consecutive assignments (the current one and the next
   * `count - 1`), all with that value; `count > 1` only for `false`. The condition is cut at
   * its top-level `and`s; when a conjunct is false and reads no variable below slot m, it is
   * false on every assignment until slot m changes, and those are skipped. Stops when
   * `visit` returns `false`.
   */
  forEachValue(condition: CheckedExpr, visit: (slots: readonly Value[], value: Value, count: number) => boolean | undefined): void;
}

/**
 * The finite model of `conditions` (boolean expressions), or `undefined` when it would
 * have more than `limit` assignments or a condition is ill-typed. Computed attributes are
 * inlined when that keeps the model within the limit; otherwise they are attributes.
 */
export function buildModel(
  conditions: readonly CheckedExpr[],
  definitions: Definitions = NO_DEFINITIONS,
  limit: number = MAX_ASSIGNMENTS,
): FiniteModel | undefined {
  const inlined = buildInlinedModel(conditions, definitions, limit);
  if (inlined !== undefined || definitions.size === 0) return inlined;
  return new ModelBuilder(NO_DEFINITIONS).build(conditions, limit);
}

/**
 * The model with computed attributes inlined, or `undefined` when it would have more than
 * `limit` assignments: no fallback to treating them as attributes. Each part of the
 * conditions (a sub-condition, one of several conditions) then has exactly the precision
 * on it that it has on a model of its own (constant-conditions.ts relies on that).
 */
export function buildInlinedModel(
  conditions: readonly CheckedExpr[],
  definitions: Definitions = NO_DEFINITIONS,
  limit: number = MAX_ASSIGNMENTS,
): FiniteModel | undefined {
  return new ModelBuilder(definitions).build(conditions, limit);
}


export type ScalarKind = 'bool' | 'enum' | 'string' | 'int' | 'float';

export interface ScalarInfo {
  readonly kind: ScalarKind;
  readonly optional: boolean;
  readonly range?: NumericRange;
  readonly members?: readonly string[];
}

interface Variable {
  readonly key: string;
  /** `undefined` for an opaque condition. */
  readonly info?: ScalarInfo;
}

/** The attributes and constants a modellable term reads. */
interface Leaves {
  readonly atoms: readonly number[];
  readonly constants: readonly Value[];
}

const NO_LEAVES: Leaves = { atoms: [], constants: [] };

class ModelBuilder {
  private readonly variables: Variable[] = [];
  private readonly variableIndex = new Map<string, number>();
  private readonly bindings = new Map<CheckedExpr, Binding>();
  private readonly parent: number[] = [];
  private readonly groupConstants: { atom: number; constants: readonly Value[] }[] = [];
  /** Whether a reference's derivation is inlined; decided once per `root:name`. */
  private readonly inlinable = new Map<string, boolean>();
  private readonly expanding = new Set<string>();
  /**
   * Derivations already cut into atoms, and the leaves of those that are terms: a derivation
   * read in many places is walked once (doing it again registers the same atoms).
   */
  private readonly inlined = new Map<CheckedExpr, Leaves>();

  constructor(private readonly definitions: Definitions) {}

  build(conditions: readonly CheckedExpr[], limit: number): FiniteModel | undefined {
    for (const condition of conditions) this.condition(condition);
    const domains = this.domains();
    if (domains === undefined) return undefined;
    let size = 1;
    for (const values of domains) {
      size *= values.length;
      if (size > limit) return undefined;
    }
    return new EnumeratedModel(
      this.variables.map((v) => v.key),
      domains,
      this.bindings,
      size,
    );
  }

  // ── Cutting conditions into atoms ──────────────────────────────────────────

  private condition(expr: CheckedExpr): void {
    switch (expr.kind) {
      case 'literal':
        return;
      case 'not':
        this.condition(expr.operand);
        return;
      case 'logical': {
        // A chain `a or b or …` in a loop (it can be 10,000 operands long), in the order
        // recursion would take: the innermost left operand, then the right ones outwards.
        const chain = [expr];
        for (let node = expr.left; node.kind === 'logical'; node = node.left) chain.push(node);
        this.condition(chain[chain.length - 1]!.left);
        for (let i = chain.length - 1; i >= 0; i--) this.condition(chain[i]!.right);
        return;
      }
      case 'if':
        this.condition(expr.condition);
        this.condition(expr.consequent);
        this.condition(expr.alternate);
        return;
      case 'compare':
        if (this.modellableComparison(expr.operator, expr.left, expr.right)) {
          this.group(this.merge(this.leaves(expr.left), this.leaves(expr.right)));
        } else {
          this.opaque(expr);
        }
        return;
      case 'isNull':
        if (this.modellable(expr.operand)) this.group(this.leaves(expr.operand));
        else this.opaque(expr);
        return;
      case 'in':
        if (expr.list.kind === 'list' && this.modellable(expr.element) && expr.list.items.every((i) => this.modellable(i))) {
          this.group(this.merge(this.leaves(expr.element), ...expr.list.items.map((i) => this.leaves(i))));
        } else {
          this.opaque(expr);
        }
        return;
      case 'ref':
      case 'field':
      case 'coalesce':
      case 'call':
        if (this.modellable(expr)) this.group(this.leaves(expr));
        else this.opaque(expr);
        return;
      default:
        if (!isConstant(expr)) this.opaque(expr);
        return;
    }
  }

  private modellableComparison(operator: string, left: CheckedExpr, right: CheckedExpr): boolean {
    if (!this.modellable(left) || !this.modellable(right)) return false;
    if (operator === '==' || operator === '!=') return true;
    // Orderings are modelled on numbers only; string order would need other representatives.
    return isNumericType(left.type) && isNumericType(right.type);
  }

  /** Is `expr` an order-only term over scalar attributes and constants? */
  private modellable(expr: CheckedExpr): boolean {
    if (isConstant(expr)) return true;
    switch (expr.kind) {
      case 'ref':
        return this.inlines(expr) || scalarInfo(expr.type) !== undefined;
      case 'field':
        return attributePath(expr) !== undefined && scalarInfo(expr.type) !== undefined;
      case 'coalesce': {
        // `a ?? b ?? …` nests to the right: its operands in a loop.
        let node: CheckedExpr = expr;
        for (; node.kind === 'coalesce' && !isConstant(node); node = node.right) if (!this.modellable(node.left)) return false;
        return this.modellable(node);
      }
      case 'call':
        return builtin(expr.name).returnsAnArgument && expr.args.every((arg) => this.modellable(arg));
      case 'if':
        return this.modellable(expr.consequent) && this.modellable(expr.alternate);
      default:
        return false;
    }
  }

  /** Registers the attributes of a modellable term; returns them with its constants. */
  private leaves(expr: CheckedExpr): Leaves {
    if (isConstant(expr)) {
      const value = evaluate(expr);
      return typeof value === 'number' || typeof value === 'string' ? { atoms: [], constants: [value] } : NO_LEAVES;
    }
    switch (expr.kind) {
      case 'ref': {
        if (this.inlines(expr)) {
          const derivation = this.definitions.get(definitionKey(expr.root, expr.name))!;
          this.bindings.set(expr, { definition: derivation });
          let leaves = this.inlined.get(derivation);
          if (leaves === undefined) {
            if (derivation.type.kind === 'bool') {
              this.condition(derivation);
              leaves = NO_LEAVES;
            } else {
              leaves = this.leaves(derivation);
            }
            this.inlined.set(derivation, leaves);
          }
          return leaves;
        }
        return this.attribute(expr, `${expr.root}.${expr.name}`);
      }
      case 'field':
        return this.attribute(expr, attributePath(expr)!);
      case 'coalesce': {
        // `a ?? b ?? …`: the operands' leaves in a loop, in order.
        const parts: Leaves[] = [];
        let node: CheckedExpr = expr;
        for (; node.kind === 'coalesce' && !isConstant(node); node = node.right) parts.push(this.leaves(node.left));
        parts.push(this.leaves(node));
        return this.merge(...parts);
      }
      case 'call':
        return this.merge(...expr.args.map((arg) => this.leaves(arg)));
      case 'if':
        this.condition(expr.condition);
        return this.merge(this.leaves(expr.consequent), this.leaves(expr.alternate));
      default:
        throw new Error(`adec bug: leaves() of a non-modellable ${expr.kind} expression`);
    }
  }

  /**
   * A reference is inlined when it has a derivation that is a condition (always
   * modellable, opaque parts and all) or a modellable term.
   */
  private inlines(ref: RefExpr): boolean {
    const key = definitionKey(ref.root, ref.name);
    const known = this.inlinable.get(key);
    if (known !== undefined) return known;
    const derivation = this.definitions.get(key);
    if (derivation === undefined || this.expanding.has(key)) return false;
    this.expanding.add(key);
    const result = derivation.type.kind === 'bool' || this.modellable(derivation);
    this.expanding.delete(key);
    this.inlinable.set(key, result);
    return result;
  }

  private attribute(expr: CheckedExpr, key: string): Leaves {
    const info = scalarInfo(expr.type);
    if (info === undefined) throw new Error(`adec bug: attribute \`${key}\` is not scalar`);
    const optional = info.optional || pathMayBeAbsent(expr);
    const index = this.variable(key, optional ? asOptional(info) : info);
    this.bindings.set(expr, { variable: index });
    return { atoms: [index], constants: [] };
  }

  private opaque(expr: CheckedExpr): void {
    this.bindings.set(expr, { variable: this.variable(`opaque:${structuralKey(expr)}`, undefined) });
  }

  private variable(key: string, info: ScalarInfo | undefined): number {
    const existing = this.variableIndex.get(key);
    if (existing !== undefined) {
      // The same path can be reached as optional in one place and narrowed in another.
      const previous = this.variables[existing]!;
      if (info && previous.info && info.optional && !previous.info.optional) {
        this.variables[existing] = { key, info: asOptional(previous.info) };
      }
      return existing;
    }
    const index = this.variables.length;
    this.variables.push(info === undefined ? { key } : { key, info });
    this.variableIndex.set(key, index);
    this.parent.push(index);
    return index;
  }

  private merge(...parts: readonly Leaves[]): Leaves {
    const atoms: number[] = [];
    const constants: Value[] = [];
    for (const part of parts) {
      for (const atom of part.atoms) atoms.push(atom);
      for (const constant of part.constants) constants.push(constant);
    }
    return { atoms, constants };
  }

  /** Attributes compared with each other share representatives (and constants). */
  private group(leaves: Leaves): void {
    const [first, ...rest] = leaves.atoms;
    if (first === undefined) return;
    for (const atom of rest) this.parent[this.find(atom)] = this.find(first);
    this.groupConstants.push({ atom: first, constants: leaves.constants });
  }

  private find(index: number): number {
    let root = index;
    while (this.parent[root] !== root) root = this.parent[root]!;
    return root;
  }

  // ── Representative values ──────────────────────────────────────────────────

  private domains(): Value[][] | undefined {
    const members = new Map<number, number[]>();
    const constants = new Map<number, Value[]>();
    this.variables.forEach((variable, index) => {
      if (variable.info === undefined) return;
      const root = this.find(index);
      const atoms = members.get(root);
      if (atoms === undefined) members.set(root, [index]);
      else atoms.push(index);
    });
    for (const { atom, constants: values } of this.groupConstants) {
      const root = this.find(atom);
      let all = constants.get(root);
      if (all === undefined) constants.set(root, (all = []));
      for (const value of values) all.push(value);
    }
    const domains: Value[][] = this.variables.map(() => BOOLEANS);
    for (const [root, atoms] of members) {
      const infos = atoms.map((atom) => this.variables[atom]!.info!);
      const values = groupValues(infos, constants.get(root) ?? []);
      if (values === undefined) return undefined;
      atoms.forEach((atom, i) => {
        domains[atom] = infos[i]!.optional ? [...values[i]!, null] : values[i]!;
      });
    }
    return domains;
  }
}

/** Shared by every model: domains are never modified. */
const BOOLEANS: Value[] = [false, true];

class EnumeratedModel implements FiniteModel {
  constructor(
    readonly keys: readonly string[],
    private readonly domains: readonly (readonly Value[])[],
    private readonly bindings: ReadonlyMap<CheckedExpr, Binding>,
    readonly size: number,
  ) {}

  private readonly compiled = new Map<CheckedExpr, Evaluator>();
  private readonly derivations = new Map<CheckedExpr, Evaluator>();

  compile(expr: CheckedExpr): Evaluator {
    let compiled = this.compiled.get(expr);
    if (compiled === undefined) {
      compiled = compileExpr(expr, this.bindings, this.derivations);
      this.compiled.set(expr, compiled);
    }
    return compiled;
  }

  forEachValue(condition: CheckedExpr, visit: (slots: readonly Value[], value: Value, count: number) => boolean | undefined): void {
    const domains = this.domains;
    const n = domains.length;
    // Conjuncts, the slowest-changing first: a false one then skips the largest block.
    const conjuncts = this.conjuncts(condition)
      .map((expr) => ({ evaluate: this.compile(expr), lowest: this.lowestSlot(expr) }))
      .sort((a, b) => b.lowest - a.lowest);
    const evaluators = conjuncts.map((c) => c.evaluate);
    const lowest = conjuncts.map((c) => c.lowest);
    const m = evaluators.length;
    // stride[i]: assignments per step of slot i (the product of the faster domains).
    const stride = new Array<number>(n + 1);
    stride[0] = 1;
    for (let i = 0; i < n; i++) stride[i + 1] = stride[i]! * domains[i]!.length;
    const counters = new Array<number>(n).fill(0);
    const slots: Value[] = domains.map((values) => values[0]!);
    let position = 0;
    while (position < this.size) {
      // Kleene `and` over the conjuncts: false if one is, true if all are, else unknown.
      let value: Value = true;
      let from = 0;
      for (let c = 0; c < m; c++) {
        const v = evaluators[c]!(slots);
        if (v === false) {
          value = false;
          from = lowest[c]!;
          break;
        }
        if (v !== true) value = UNKNOWN;
      }
      // The assignments left in the block where slots from `from` up keep their values.
      let count = 1;
      if (from > 0) {
        let offset = 0;
        for (let i = 0; i < from; i++) offset += counters[i]! * stride[i]!;
        count = stride[from]! - offset;
      }
      if (visit(slots, value, count) === false) return;
      position += count;
      advance(domains, counters, slots, from);
    }
  }

  /**
   * The operands of `condition`'s top-level `and`s (not bound by the model), left to right;
   * walked with a stack, as a chain `a and b and …` can be 10,000 operands long.
   */
  private conjuncts(condition: CheckedExpr): CheckedExpr[] {
    const conjuncts: CheckedExpr[] = [];
    const pending: CheckedExpr[] = [condition];
    while (pending.length > 0) {
      const e = pending.pop()!;
      if (e.kind === 'logical' && e.operator === 'and' && !this.bindings.has(e)) pending.push(e.right, e.left);
      else conjuncts.push(e);
    }
    return conjuncts;
  }

  /** The lowest slot `expr` reads (derivations included); the slot count if none. */
  private lowestSlot(expr: CheckedExpr): number {
    let lowest = this.keys.length;
    const seen = new Set<CheckedExpr>();
    const pending: CheckedExpr[] = [expr];
    while (pending.length > 0) {
      const e = pending.pop()!;
      const binding = this.bindings.get(e);
      if (binding !== undefined) {
        if ('variable' in binding) lowest = Math.min(lowest, binding.variable);
        else if (!seen.has(binding.definition)) {
          seen.add(binding.definition);
          pending.push(binding.definition);
        }
        continue;
      }
      for (const child of childExpressions(e)) pending.push(child);
    }
    return lowest;
  }

  forEachSlots(visit: (slots: readonly Value[]) => boolean | undefined): void {
    const domains = this.domains;
    const counters = new Array<number>(domains.length).fill(0);
    const slots: Value[] = domains.map((values) => values[0]!);
    for (let a = 0; a < this.size; a++) {
      if (visit(slots) === false) return;
      advance(domains, counters, slots, 0);
    }
  }

  keyedEnvironment(values: ReadonlyMap<string, Value>): Environment {
    const env: Environment = {
      lookup: (expr) => {
        const binding = this.bindings.get(expr);
        if (binding === undefined) return undefined;
        if ('definition' in binding) return evaluate(binding.definition, env);
        const key = this.keys[binding.variable]!;
        return values.has(key) ? values.get(key)! : UNKNOWN;
      },
    };
    return env;
  }

  forEachAssignment(visit: (env: Environment, current: () => Map<string, Value>) => boolean | undefined): void {
    const counters = this.domains.map(() => 0);
    const env: Environment = {
      lookup: (expr) => {
        const binding = this.bindings.get(expr);
        if (binding === undefined) return undefined;
        if ('definition' in binding) return evaluate(binding.definition, env);
        return this.domains[binding.variable]![counters[binding.variable]!];
      },
    };
    const current = (): Map<string, Value> =>
      new Map(this.keys.map((key, i) => [key, this.domains[i]![counters[i]!]!] as const));
    for (let n = 0; n < this.size; n++) {
      if (visit(env, current) === false) return;
      for (let i = 0; i < counters.length; i++) {
        counters[i]!++;
        if (counters[i]! < this.domains[i]!.length) break;
        counters[i] = 0;
      }
    }
  }
}

/** Representatives for the attributes of one group (see the module comment). */
export function groupValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] | undefined {
  const kinds = new Set(infos.map((info) => info.kind));
  if ([...kinds].every((kind) => kind === 'bool')) return infos.map(() => [false, true]);
  if ([...kinds].every((kind) => kind === 'enum' || kind === 'string')) return stringValues(infos, constants);
  if ([...kinds].every((kind) => kind === 'int' || kind === 'float')) return numericValues(infos, constants);
  return undefined; // an ill-typed comparison: the checker reported it
}

function stringValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] {
  // Only plain strings need the literals and the others; an enum takes its members.
  if (infos.every((info) => info.kind === 'enum')) return infos.map((info) => [...(info.members ?? [])]);
  const literals = new Set<string>(constants.filter((c): c is string => typeof c === 'string'));
  for (const info of infos) for (const member of info.members ?? []) literals.add(member);
  const others: string[] = [];
  for (let i = 0; others.length < infos.length; i++) {
    const other = `\u0000other${i}`;
    if (!literals.has(other)) others.push(other);
  }
  const strings = [...literals].sort().concat(others);
  return infos.map((info) => (info.kind === 'enum' ? [...(info.members ?? [])] : strings));
}

function numericValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] | undefined {
  const k = infos.length;
  const splits = new Set<number>(constants.filter((c): c is number => typeof c === 'number' && Number.isFinite(c)));
  for (const info of infos) {
    if (info.range?.min !== undefined) splits.add(info.range.min);
    if (info.range?.max !== undefined) splits.add(info.range.max);
  }
  if (splits.size === 0) splits.add(0);
  // Beyond 2^53 neighbouring integers are no longer distinct numbers, so the representatives
  // could miss a region: make no claim rather than a wrong one.
  for (const c of splits) if (Math.abs(c) + k + 1 > Number.MAX_SAFE_INTEGER) return undefined;
  const hasInts = infos.some((info) => info.kind === 'int');
  const hasFloats = infos.some((info) => info.kind !== 'int');
  // Integer representatives are needed by int attributes, and split the floats' domain
  // when the group has both; each side is computed only when some attribute needs it.
  const integers = new Set<number>();
  if (hasInts) {
    for (const c of splits) {
      for (let v = Math.floor(c) - k; v <= Math.ceil(c) + k; v++) integers.add(v);
    }
  }
  let floatValues: number[] = [];
  if (hasFloats) {
    const floatSplits = sortedNumbers(hasInts ? new Set([...splits, ...integers]) : splits);
    const floats = new Set<number>(floatSplits);
    for (let i = 1; i <= k; i++) {
      floats.add(floatSplits[0]! - i);
      floats.add(floatSplits[floatSplits.length - 1]! + i);
      for (let j = 0; j + 1 < floatSplits.length; j++) {
        const low = floatSplits[j]!;
        const high = floatSplits[j + 1]!;
        floats.add(low + ((high - low) * i) / (k + 1));
      }
    }
    floatValues = sortedNumbers(floats);
  }
  const intValues = hasInts ? sortedNumbers(integers) : [];
  return infos.map((info) => (info.kind === 'int' ? intValues : floatValues).filter((v) => inRange(v, info.range)));
}

/** Ascending. The values are distinct (a set) and finite, so a typed-array sort orders them as `(a, b) => a - b` would. */
function sortedNumbers(values: ReadonlySet<number>): number[] {
  return Array.from(Float64Array.from(values).sort());
}

function inRange(value: number, range: NumericRange | undefined): boolean {
  return (range?.min === undefined || value >= range.min) && (range?.max === undefined || value <= range.max);
}

const scalarInfos = new WeakMap<Type, ScalarInfo | null>();
const optionalInfos = new WeakMap<ScalarInfo, ScalarInfo>();

/** `info`, optional; the same object each time. */
function asOptional(info: ScalarInfo): ScalarInfo {
  if (info.optional) return info;
  let optional = optionalInfos.get(info);
  if (optional === undefined) optionalInfos.set(info, (optional = { ...info, optional: true }));
  return optional;
}

/** The scalar description of `type`; the same object for the same type object. */
function scalarInfo(type: Type): ScalarInfo | undefined {
  let info = scalarInfos.get(type);
  if (info === undefined) scalarInfos.set(type, (info = describeScalar(type) ?? null));
  return info ?? undefined;
}

function describeScalar(type: Type): ScalarInfo | undefined {
  switch (type.kind) {
    case 'optional': {
      const inner = scalarInfo(type.inner);
      return inner && { ...inner, optional: true };
    }
    case 'bool':
    case 'string':
      return { kind: type.kind, optional: false };
    case 'int':
    case 'float':
      return type.range ? { kind: type.kind, optional: false, range: type.range } : { kind: type.kind, optional: false };
    case 'timestamp':
    case 'duration':
      return { kind: 'int', optional: false };
    case 'enum':
      return { kind: 'enum', optional: false, members: type.members };
    default:
      return undefined;
  }
}

function isNumericType(type: Type): boolean {
  const info = scalarInfo(type);
  return info !== undefined && (info.kind === 'int' || info.kind === 'float');
}

/** `payload.rationale`, `action.intensity`: a field chain on a reference, else undefined. */
function attributePath(expr: CheckedExpr): string | undefined {
  if (expr.kind === 'ref') return `${expr.root}.${expr.name}`;
  if (expr.kind !== 'field') return undefined;
  const object = attributePath(expr.object);
  return object === undefined ? undefined : `${object}.${expr.name}`;
}

/** A field read through `?.` somewhere on its path is absent when its object is. */
function pathMayBeAbsent(expr: CheckedExpr): boolean {
  if (expr.kind !== 'field') return false;
  return expr.optional || pathMayBeAbsent(expr.object);
}

/** An expression without references: its value is the same in every assignment. */
function isConstant(expr: CheckedExpr): boolean {
  return !containsReference(expr);
}

const referenceCache = new WeakMap<CheckedExpr, boolean>();

/** Decided every node below `expr` at once, with a stack: a chain can be 10,000 operands long. */
function containsReference(expr: CheckedExpr): boolean {
  const known = (e: CheckedExpr): boolean | undefined => (e.kind === 'ref' ? true : e.kind === 'literal' ? false : referenceCache.get(e));
  const pending: CheckedExpr[] = [expr];
  while (pending.length > 0) {
    const e = pending[pending.length - 1]!;
    if (known(e) !== undefined) {
      pending.pop();
      continue;
    }
    const children = childExpressions(e);
    const undecided = children.filter((child) => known(child) === undefined);
    if (undecided.length > 0) {
      pending.push(...undecided);
      continue;
    }
    referenceCache.set(e, children.some((child) => known(child)));
    pending.pop();
  }
  return known(expr)!;
}

/**
 * The number of nodes in `expr`, counted up to `limit` (the count stops there): what the
 * analyses' costs grow with. Counted with a stack, as a chain can be 10,000 operands long.
 */
export function expressionSize(expr: CheckedExpr, limit: number = Number.POSITIVE_INFINITY): number {
  let size = 0;
  const pending: CheckedExpr[] = [expr];
  while (pending.length > 0 && size < limit) {
    const e = pending.pop()!;
    size++;
    for (const child of childExpressions(e)) pending.push(child);
  }
  return size;
}

/**
 * What evaluating `expr` costs, in nodes, counted up to `limit`: its own nodes, and for each
 * reference to a computed attribute or derived state in `definitions` the cost of the
 * derivation, which a model inlines (a condition reading such a value 10,000 times evaluates
 * its derivation as often).
 */
export function evaluationCost(expr: CheckedExpr, definitions: Definitions, limit: number = Number.POSITIVE_INFINITY): number {
  let cost = 0;
  const pending: CheckedExpr[] = [expr];
  while (pending.length > 0 && cost < limit) {
    const e = pending.pop()!;
    cost++;
    if (e.kind === 'ref') {
      const derivation = definitions.get(definitionKey(e.root, e.name));
      if (derivation !== undefined) pending.push(derivation);
      continue;
    }
    for (const child of childExpressions(e)) pending.push(child);
  }
  return cost;
}

const structuralKeys = new WeakMap<CheckedExpr, string>();

/** Equal for expressions that compute the same thing, wherever they are written. */
export function structuralKey(expr: CheckedExpr): string {
  let key = structuralKeys.get(expr);
  if (key === undefined) {
    try {
      key = JSON.stringify(expr, (field, value: unknown) => (field === 'span' || field === 'type' ? undefined : value));
    } catch (error) {
      // JSON.stringify recurses: a chain of thousands of operands exceeds the stack.
      if (!(error instanceof RangeError)) throw error;
      key = jsonWithout(expr, STRUCTURE_ONLY);
    }
    structuralKeys.set(expr, key);
  }
  return key;
}

const STRUCTURE_ONLY = new Set(['span', 'type']);

/**
 * `JSON.stringify(value)` of plain data (objects, arrays, strings, numbers, booleans, null)
 * without the properties named in `omit`, with a stack instead of recursion: the same text.
 */
export function jsonWithout(value: unknown, omit: ReadonlySet<string>): string {
  const out: string[] = [];
  const pending: ({ readonly text: string } | { readonly value: unknown })[] = [{ value }];
  const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  while (pending.length > 0) {
    const item = pending.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (v === null || typeof v !== 'object') {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- JSON.stringify gives undefined for undefined, functions and symbols, which lib.d.ts's `string` leaves out
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const parts: ({ readonly text: string } | { readonly value: unknown })[] = [];
    if (Array.isArray(v)) {
      parts.push({ text: '[' });
      v.forEach((element: unknown, index) => {
        if (index > 0) parts.push({ text: ',' });
        parts.push(skipped(element) ? { text: 'null' } : { value: element });
      });
      parts.push({ text: ']' });
    } else {
      parts.push({ text: '{' });
      let first = true;
      for (const [field, element] of Object.entries(v)) {
        if (omit.has(field) || skipped(element)) continue;
        parts.push({ text: `${first ? '' : ','}${JSON.stringify(field)}:` }, { value: element });
        first = false;
      }
      parts.push({ text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return out.join('');
}

/**
 * Steps the odometer `counters` (whose `slots` hold the values they select) to the next
 * assignment in which every slot below `from` is back at its first value: those slots reset,
 * and counting carries on from slot `from` (slot 0 changes fastest).
 */
function advance(domains: readonly (readonly Value[])[], counters: number[], slots: Value[], from: number): void {
  for (let i = 0; i < from; i++) {
    counters[i] = 0;
    slots[i] = domains[i]![0]!;
  }
  for (let i = from; i < domains.length; i++) {
    const values = domains[i]!;
    const next = counters[i]! + 1;
    if (next < values.length) {
      counters[i] = next;
      slots[i] = values[next]!;
      return;
    }
    counters[i] = 0;
    slots[i] = values[0]!;
  }
}
