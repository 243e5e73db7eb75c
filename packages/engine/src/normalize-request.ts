/**
 * Stage 1 for selection: a request is checked against its scenario and turned into the
 * complete, module-form request the extension computes on. Every problem is collected (not
 * just the first), each with its JSON path, so a client can fix a request in one round.
 *
 * Signals: a supplied value must fit the signal's type and is converted (timestamps and
 * durations to ms); an absent one takes its declared default, or null when its type is
 * optional, and is listed in `defaults_applied`; an absent required one, or an undeclared
 * one, is a problem. Actions: `action_id` a non-empty string unique in the request, `type`
 * an action type of the scenario, every field of that type present (absent means null for a
 * `T?` field) with a value that fits its type, converted like a signal, and no field the type
 * does not declare. Conditions: strings. The execution mode: the request's override when it
 * gives one, else the scenario's default.
 */
import { EXECUTION_MODES } from '@adec/abi';
import { describeValue as describe } from '@adec/runtime';
import type { ScenarioSpec } from './scenario-catalog.js';
import type { RequestProblem } from './selection-error.js';
import type { CandidateAction, ExecutionMode, NormalizedRequest, SelectionRequest } from './selection-request.js';

export type NormalizeResult = { readonly ok: true; readonly request: NormalizedRequest } | { readonly ok: false; readonly problems: readonly RequestProblem[] };

/**
 * `memory` (the user's short-term memory, wire form) fills a signal the request does not
 * supply, before its default; a remembered value that no longer fits the signal's type is
 * passed over (the scenario changed since it was recorded), never blamed on the request.
 */
export function normalizeRequest(scenario: ScenarioSpec, request: SelectionRequest, memory: Readonly<Record<string, unknown>> = {}): NormalizeResult {
  const problems: RequestProblem[] = [];
  const { signals, defaultsApplied, memoryApplied } = normalizeSignals(scenario, request.signals, memory, problems);
  const actions = normalizeActions(scenario, request.actions, problems);
  const conditions = normalizeConditions(request.conditions, problems);
  const mode = normalizeMode(request.execution_mode_override, problems) ?? scenario.defaultMode;
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, request: { scenario: scenario.id, signals, defaults_applied: defaultsApplied, memory_applied: memoryApplied, actions, conditions, execution_mode: mode } };
}

function normalizeSignals(scenario: ScenarioSpec, supplied: unknown, memory: Readonly<Record<string, unknown>>, problems: RequestProblem[]) {
  const signals: Record<string, unknown> = {};
  const defaultsApplied: string[] = [];
  const memoryApplied: string[] = [];
  const given = supplied === undefined ? {} : supplied;
  if (!isPlainObject(given)) {
    problems.push({ path: 'signals', message: `expected an object, found ${describe(given)}` });
    return { signals, defaultsApplied, memoryApplied };
  }
  for (const signal of scenario.signals) {
    const path = `signals.${signal.name}`;
    const value = Object.hasOwn(given, signal.name) ? given[signal.name] : undefined;
    const remembered = Object.hasOwn(memory, signal.name) ? rememberedValue(signal, memory[signal.name]) : undefined;
    if (value !== undefined) {
      signals[signal.name] = signal.convert(value, path, problems);
    } else if (remembered !== undefined) {
      signals[signal.name] = remembered.value;
      memoryApplied.push(signal.name);
    } else if (signal.hasDefault || signal.optional) {
      signals[signal.name] = signal.hasDefault ? signal.convert(signal.defaultValue, path, problems) : null;
      defaultsApplied.push(signal.name);
    } else {
      problems.push({ path, message: `\`${signal.name}\` is required: it has no default` });
    }
  }
  for (const name of Object.keys(given)) {
    if (!scenario.signals.some((s) => s.name === name)) {
      problems.push({ path: `signals.${name}`, message: `\`${name}\` is not a signal of scenario \`${scenario.id}\`` });
    }
  }
  return { signals, defaultsApplied, memoryApplied };
}

/** A remembered wire value converted for `signal`, or undefined when it does not fit. */
function rememberedValue(signal: ScenarioSpec['signals'][number], value: unknown): { readonly value: unknown } | undefined {
  const problems: RequestProblem[] = [];
  const converted = signal.convert(value, `memory.${signal.name}`, problems);
  return problems.length === 0 ? { value: converted } : undefined;
}

function normalizeActions(scenario: ScenarioSpec, actions: unknown, problems: RequestProblem[]): CandidateAction[] {
  if (!Array.isArray(actions)) {
    problems.push({ path: 'actions', message: `expected a list of actions, found ${describe(actions)}` });
    return [];
  }
  const firstIndex = new Map<string, number>();
  const normalized: CandidateAction[] = [];
  actions.forEach((action: unknown, i) => {
    const path = `actions[${i}]`;
    if (!isPlainObject(action)) {
      problems.push({ path, message: `expected an action object such as { "action_id": "a1", "type": "…" }, found ${describe(action)}` });
      return;
    }
    const id = action['action_id'];
    if (typeof id !== 'string' || id === '') {
      problems.push({ path: `${path}.action_id`, message: `expected a non-empty string, found ${describe(id)}` });
    } else if (firstIndex.has(id)) {
      problems.push({ path: `${path}.action_id`, message: `duplicate action_id ${JSON.stringify(id)}, already used by actions[${firstIndex.get(id)}]` });
    } else {
      firstIndex.set(id, i);
    }
    const fields = normalizeFields(scenario, action, path, problems);
    if (fields !== undefined) normalized.push({ action_id: id as string, type: action['type'] as string, ...fields });
  });
  return normalized;
}

/** The action's fields in module form, or undefined when its type is unknown. */
function normalizeFields(scenario: ScenarioSpec, action: Record<string, unknown>, path: string, problems: RequestProblem[]): Record<string, unknown> | undefined {
  const type = action['type'];
  const fields = typeof type === 'string' ? scenario.actionTypes.get(type) : undefined;
  if (typeof type !== 'string' || fields === undefined) {
    const known = [...scenario.actionTypes.keys()].join(', ');
    problems.push({ path: `${path}.type`, message: `expected an action type of scenario \`${scenario.id}\` (${known}), found ${describe(type)}` });
    return undefined;
  }
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const fieldPath = `${path}.${field.name}`;
    const value = Object.hasOwn(action, field.name) ? action[field.name] : undefined;
    if (value !== undefined) values[field.name] = field.convert(value, fieldPath, problems);
    else if (field.optional) values[field.name] = null;
    else problems.push({ path: fieldPath, message: `\`${field.name}\` is required for action type \`${type}\`` });
  }
  for (const name of Object.keys(action)) {
    if (name !== 'action_id' && name !== 'type' && !fields.some((field) => field.name === name)) {
      problems.push({ path: `${path}.${name}`, message: `\`${name}\` is not a field of action type \`${type}\`` });
    }
  }
  return values;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const MODES: readonly ExecutionMode[] = EXECUTION_MODES;

function normalizeMode(override: unknown, problems: RequestProblem[]): ExecutionMode | undefined {
  if (override === undefined || override === null) return undefined;
  if (MODES.includes(override as ExecutionMode)) return override as ExecutionMode;
  problems.push({ path: 'execution_mode_override', message: `expected ${[...MODES, 'null'].join(', ').replace(/, (?=[^,]*$)/, ' or ')}, found ${describe(override)}` });
  return undefined;
}

function normalizeConditions(conditions: unknown, problems: RequestProblem[]): string[] {
  if (conditions === undefined) return [];
  if (!Array.isArray(conditions) || !conditions.every((c): c is string => typeof c === 'string')) {
    problems.push({ path: 'conditions', message: `expected a list of condition names, found ${describe(conditions)}` });
    return [];
  }
  return [...new Set(conditions)];
}
