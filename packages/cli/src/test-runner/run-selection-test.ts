/** Runs a selection test through the engine's `select` and compares the selection. */
import type { CheckedTest } from '@adec/compiler';
import type { LoadedModule } from '@adec/runtime';
import { select, type CandidateAction } from '@adec/engine';
import type { SelectionOutcome, SelectionVerdict } from './test-outcome.js';

type SelectionTest = Extract<CheckedTest, { kind: 'selection' }>;

/**
 * Generous next to the production budget (65 ms): a test checks what is selected, and must not
 * fail because a loaded CI machine ran it slowly.
 */
const TEST_TIME_LIMIT_MS = 1_000;

export async function runSelectionTest(module: LoadedModule, test: SelectionTest): Promise<SelectionOutcome> {
  const result = await select(module, { scenario: test.scenario, signals: test.signals, actions: test.actions as unknown as CandidateAction[] }, TEST_TIME_LIMIT_MS);
  const expected: SelectionVerdict =
    'selected' in test.expect ? { status: 'SELECTED', selected_action: test.expect.selected } : { status: 'NO_ELIGIBLE_ACTIONS', selected_action: null };
  const base = { kind: 'selection' as const, name: test.name, file: test.span.file, line: test.span.line, scenario: test.scenario, expected };
  if (!result.ok) return { ...base, passed: false, actual: null, selection: null, error: result.error };
  const { status, selected_action } = result.selection;
  const passed = status === expected.status && selected_action === expected.selected_action;
  return { ...base, passed, actual: { status, selected_action }, selection: result.selection, error: null };
}
