/**
 * Runs a selection test through the engine: `select` gives the selection the test compares,
 * and once an action is selected the whole cycle (`runCycle`) runs its skill as a host would,
 * with no model unless the test gives the model's reply, so `expect skill …` sees the payload
 * and the validation a real decision would have.
 */
import { randomUUID } from 'node:crypto';
import type { CheckedTest } from '@adec/compiler';
import type { LoadedModule } from '@adec/runtime';
import { llmStubExecutor, runCycle, select, type CandidateAction, type SelectionRequest } from '@adec/engine';
import { compareSkill, renderedTemplates, skillFacts, type RenderedTemplate, type SkillFacts } from './skill-expectations.js';
import type { SelectionOutcome, SelectionVerdict } from './test-outcome.js';

type SelectionTest = Extract<CheckedTest, { kind: 'selection' }>;

/**
 * Generous next to the production budget (65 ms): a test checks what is selected, and must not
 * fail because a loaded CI machine ran it slowly.
 */
const TEST_TIME_LIMIT_MS = 1_000;

/** A fixed decision time, as adjudication tests decide at a fixed `request_time`, so runs are reproducible. */
const TEST_TIMESTAMP = '2026-01-01T00:00:00.000Z';

export async function runSelectionTest(module: LoadedModule, test: SelectionTest): Promise<SelectionOutcome> {
  const request: SelectionRequest = { scenario: test.scenario, signals: test.signals, actions: test.actions as unknown as CandidateAction[] };
  const result = await select(module, request, TEST_TIME_LIMIT_MS);
  const expected: SelectionVerdict =
    'selected' in test.expect ? { status: 'SELECTED', selected_action: test.expect.selected } : { status: 'NO_ELIGIBLE_ACTIONS', selected_action: null };
  const base = { kind: 'selection' as const, name: test.name, file: test.span.file, line: test.span.line, scenario: test.scenario, expected };
  const noSkill = { skill: null, skillMismatches: [], rendered: [] };
  if (!result.ok) return { ...base, passed: false, actual: null, selection: null, error: result.error, ...noSkill };
  const { status, selected_action } = result.selection;
  const selectedAsExpected = status === expected.status && selected_action === expected.selected_action;
  const skill = status === 'SELECTED' ? await runSkill(module, request, test) : { facts: null, rendered: [] };
  const skillMismatches = selectedAsExpected && test.expectSkill !== undefined ? compareSkill(test.expectSkill, skill.facts) : [];
  return {
    ...base,
    passed: selectedAsExpected && skillMismatches.length === 0,
    actual: { status, selected_action },
    selection: result.selection,
    error: null,
    skill: skill.facts,
    skillMismatches,
    rendered: skill.rendered,
  };
}

/**
 * A skill runs within its contract's time limit (20 to 50 ms for templates), which a loaded CI
 * machine can overrun where a host would not: a cycle whose skill timed out runs again, up to
 * SKILL_ATTEMPTS times, so a test fails for what its skill renders, not for the machine's load.
 */
const SKILL_ATTEMPTS = 3;

async function runSkill(module: LoadedModule, request: SelectionRequest, test: SelectionTest): Promise<{ facts: SkillFacts | null; rendered: RenderedTemplate[] }> {
  // `model_reply` is the payload the model writes; it answers in a well-formed output envelope.
  const reply = test.modelReply;
  const executors = reply === undefined ? [] : [llmStubExecutor(() => ({ payload: reply }), { id: 'model_reply' })];
  for (let attempt = 1; ; attempt++) {
    // A decision id is a UUID v4 (docs/spec/selection.md 3.1.2); nothing a test checks reads it.
    const cycle = await runCycle(module, request, { decisionId: randomUUID(), timestamp: TEST_TIMESTAMP, executors, timeLimitMs: TEST_TIME_LIMIT_MS });
    if (!cycle.ok || cycle.response === null) return { facts: null, rendered: [] };
    const { execute_skill: execution, fallback } = cycle.trace.stages;
    const timedOut = execution?.timeout_occurred === true || fallback?.output.FallbackOutput.execution?.status === 'timeout';
    if (!timedOut || attempt === SKILL_ATTEMPTS) return { facts: skillFacts(cycle.response, cycle.trace), rendered: renderedTemplates(cycle.trace) };
  }
}
