/**
 * What a selection test expects of the skill that describes the selected action, and what the
 * cycle gave for exactly that: the payload the response carries (the skill's own, or its
 * fallback's), and how stage 7 judged the output of the skill that ran. The comparison names
 * every expectation that did not hold, so a failure report can show each as expected against
 * actual.
 */
import type { SkillExpectation, SkillOutputCheck } from '@adec/compiler';
import type { AddressedTrace, DecisionResponse, ValidationFailure } from '@adec/engine';

/** The skill part of a decided cycle, as a test sees it. */
export interface SkillFacts {
  /** The skill stage 6 ran (an llm skill's fallback in its place when no model was asked), and how. */
  readonly ran: string;
  readonly executor: string;
  /** Stage 7 on that skill's output; null when it gave none (a timeout, an error). */
  readonly validation: { readonly passed: boolean; readonly failures: readonly ValidationFailure[] } | null;
  /** The skill whose payload the response carries, and the template it rendered (null for a model's reply or none). */
  readonly producer: string;
  readonly template: string | null;
  readonly payload: unknown;
  /** Why the response carries a fallback's payload; null when it carries the skill's own. */
  readonly fallback: { readonly tier: number | null; readonly reason: string } | null;
}

/** A skill template that rendered in a test, for coverage. */
export interface RenderedTemplate {
  readonly skill: string;
  readonly template: string;
}

export type SkillMismatch =
  | { readonly kind: 'output'; readonly check: SkillOutputCheck; readonly actual: unknown }
  | { readonly kind: 'validation'; readonly expected: NonNullable<SkillExpectation['validation']> };

export function skillFacts(response: DecisionResponse, trace: AddressedTrace): SkillFacts | null {
  const execution = trace.stages.execute_skill?.output.SkillOutput ?? null;
  const validation = trace.stages.validate_output?.output.ValidationResult ?? null;
  const fallback = trace.stages.fallback?.output.FallbackOutput ?? null;
  if (execution === null) return null;
  const tier2 = fallback?.tier === 2 ? fallback.execution : null;
  const { execution: how } = response;
  return {
    ran: execution.skill_bundle_id,
    executor: execution.executor_id,
    validation: validation === null ? null : { passed: validation.valid, failures: validation.failures },
    producer: how.skill_bundle_id,
    template: tier2 !== null ? tier2.template : fallback?.tier === 3 ? null : execution.template,
    payload: response.decision.payload,
    fallback: how.fallback_reason_code === null ? null : { tier: how.fallback_tier, reason: how.fallback_reason_code },
  };
}

/** The templates the cycle rendered: the skill's own, and a fallback's at tier 2 or 3. */
export function renderedTemplates(trace: AddressedTrace): RenderedTemplate[] {
  const executions = [trace.stages.execute_skill?.output.SkillOutput ?? null, trace.stages.fallback?.output.FallbackOutput.execution ?? null];
  return executions.flatMap((e) => (e !== null && e.template !== null && e.status === 'completed' ? [{ skill: e.skill_bundle_id, template: e.template }] : []));
}

/** `facts` null: no skill ran, so every expectation fails. */
export function compareSkill(expected: SkillExpectation, facts: SkillFacts | null): SkillMismatch[] {
  const payload = (facts?.payload ?? {}) as Readonly<Record<string, unknown>>;
  const output = (expected.output ?? []).flatMap((check): SkillMismatch[] => {
    const actual = payload[check.field] ?? null;
    return fieldHolds(check, actual) ? [] : [{ kind: 'output', check, actual }];
  });
  const validation = expected.validation;
  return validation === undefined || validationHolds(validation, facts?.validation ?? null) ? output : [...output, { kind: 'validation', expected: validation }];
}

/** An absent optional field reads as null, as the schema allows either. */
function fieldHolds(check: SkillOutputCheck, actual: unknown): boolean {
  if (check.match === 'contains') return typeof actual === 'string' && typeof check.value === 'string' && actual.includes(check.value);
  return JSON.stringify(actual) === JSON.stringify(check.value);
}

/** `failed "ID"` holds when the output failed and ID is among the failures, by its id or its check. */
function validationHolds(expected: NonNullable<SkillExpectation['validation']>, actual: SkillFacts['validation']): boolean {
  if (actual === null) return false;
  if (expected.passed) return actual.passed;
  return !actual.passed && expected.checks.every((name) => actual.failures.some((f) => f.id === name || f.check === name));
}
