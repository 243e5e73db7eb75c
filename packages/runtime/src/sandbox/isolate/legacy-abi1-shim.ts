/**
 * Runs right after an ABI 1 bundle defines its module, before the evaluator takes it: its
 * tables become ABI 2 tables (module/legacy-abi1.ts says how and why). A module of any other
 * ABI is left untouched. The module is the bundle's, so nothing about its shape is trusted.
 */
import { isolateGlobals } from './isolate-globals.js';

type Table = Readonly<Record<string, unknown>>;

const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null;
const tableOr = (value: unknown): Table => (isTable(value) ? value : {});

/** ABI 1 carried a status literal per rule: RED is tier 1, anything else tier 2. */
function outcomesAndTiers(legacySeverity: Table): { outcome: Record<string, unknown>; severity: Record<string, 't1' | 't2'> } {
  const outcome: Record<string, unknown> = {};
  const severity: Record<string, 't1' | 't2'> = {};
  for (const id of Object.keys(legacySeverity)) {
    outcome[id] = legacySeverity[id];
    severity[id] = legacySeverity[id] === 'RED' ? 't1' : 't2';
  }
  return { outcome, severity };
}

/** Each action under winner_takes_all with ABI 1's limit, its rules in tier order (declaration order within a tier). */
function actionsInTierOrder(legacyActions: Table, severity: Readonly<Record<string, 't1' | 't2'>>): Record<string, unknown> {
  const actions: Record<string, unknown> = {};
  for (const name of Object.keys(legacyActions)) {
    const action = tableOr(legacyActions[name]);
    const rules: unknown[] = Array.isArray(action['rules']) ? [...(action['rules'] as unknown[])] : [];
    const inTier1 = (id: unknown) => typeof id === 'string' && severity[id] === 't1';
    actions[name] = {
      aggregation: { mode: 'winner_takes_all' },
      predicate_timeout_ms: 5,
      ...action,
      rules: [...rules.filter(inTier1), ...rules.filter((id) => !inTier1(id))],
    };
  }
  return actions;
}

const module: unknown = isolateGlobals.__adec_module;
if (isTable(module) && module['_ABI_VERSION'] === 1) {
  const { outcome, severity } = outcomesAndTiers(tableOr(module['_RULE_SEVERITY']));
  const rewritten = { ...module, _ACTIONS: actionsInTierOrder(tableOr(module['_ACTIONS']), severity), _RULE_OUTCOME: outcome, _RULE_SEVERITY: severity };
  // The evaluator reads what it reads of any module through its own checks (evaluator.ts).
  isolateGlobals.__adec_module = rewritten as unknown as typeof isolateGlobals.__adec_module;
}
