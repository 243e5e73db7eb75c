/**
 * The tables of a compiled module that the selection extension reads inside the isolate. They
 * come from module code: every function may throw or return anything, and a module from
 * another compiler may hold values this engine does not know (an unknown guardrail effect).
 */

/** A function the module compiled: a state derivation, a guardrail's parts, an objective, a key… */
export type ModuleFunction = (...args: unknown[]) => unknown;

export interface StateEntry {
  readonly name: string;
  readonly derive: ModuleFunction;
}

export interface CompiledGuardrail {
  readonly id: string;
  readonly description: unknown;
  readonly effect: unknown;
  readonly when: ModuleFunction;
  /** `block` */
  readonly predicate?: ModuleFunction;
  /** `force` */
  readonly action_type?: string;
  /** `cap` */
  readonly field?: string;
  readonly limit?: ModuleFunction;
}

export interface CompiledObjective {
  readonly name: string;
  readonly weight: number;
  readonly score: ModuleFunction;
}

export interface CompiledTieBreak {
  readonly key: ModuleFunction;
  readonly direction: unknown;
}

export interface CompiledActionType {
  readonly name: string;
  readonly fields: unknown;
  readonly schemas: unknown;
  readonly skill: string | null;
}

export interface ExecutionRiskTable {
  readonly weight: number;
  readonly factors: Readonly<Record<string, number>>;
}

export interface CompiledScenario {
  readonly version: unknown;
  readonly default_mode: unknown;
  readonly signals: unknown;
  readonly action_types: readonly CompiledActionType[];
  readonly state: readonly StateEntry[];
  readonly guardrails: readonly CompiledGuardrail[];
  readonly objectives: readonly CompiledObjective[];
  readonly tie_breaks: readonly CompiledTieBreak[];
  readonly execution_risk?: ExecutionRiskTable | null;
}

export interface CompiledTemplate {
  readonly name: string;
  readonly when?: ModuleFunction;
  readonly render: ModuleFunction;
}

export interface CompiledSkill {
  readonly version: unknown;
  readonly type: unknown;
  readonly description: unknown;
  readonly prompt: ModuleFunction | null;
  readonly timeout_ms: unknown;
  readonly hard_limit_ms: unknown;
  readonly fallback: unknown;
  readonly action_metadata_fields: unknown;
  readonly user_state_fields: unknown;
  readonly output_schema: unknown;
  readonly prohibitions: unknown;
  readonly templates: readonly CompiledTemplate[];
}

export interface CompiledInvariant {
  readonly id: string;
  readonly description: unknown;
  readonly source: unknown;
  readonly check: ModuleFunction;
  /** The check over text folded as a reader sees it; absent from modules of older compilers. */
  readonly check_folded?: unknown;
}

export interface SelectionModule {
  readonly _SCENARIOS?: Readonly<Record<string, CompiledScenario>>;
  readonly _SKILLS?: Readonly<Record<string, CompiledSkill>>;
  readonly _INVARIANTS?: Readonly<Record<string, readonly CompiledInvariant[]>>;
}
