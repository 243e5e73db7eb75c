/**
 * Text is judged as a reader sees it (docs/skill-text.md): every protected term and prohibited
 * phrase of the SEC lab world, in every generated disguise (invisible characters, homoglyphs,
 * full-width and styled letters, accents, case, spacing, line breaks, punctuation inside words,
 * bidi overrides, alone and stacked), written by a scripted model, must be caught by its rule:
 * the reply is flagged, the fallback answers, and the trace names the rule and where in the
 * reply it found the phrase. The undisguised reply around it passes, so each variant fails only
 * for the phrase it hides.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { llmStubExecutor, runCycle, type ValidationFailure } from '@adec/engine';
import { loadWorld } from './selection-fixtures.js';
import { LAB_CANDIDATES, LAB_PROTECTED, LAB_SIGNALS, SELECTED, VALID_REPLY, labVariants } from './sec-disguises/lab-protected.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

let lab: LoadedModule;
beforeAll(async () => {
  lab = await loadWorld('packages/engine/test/worlds/sec-lab');
});

async function decideWith(text: string) {
  const executor = llmStubExecutor(() => ({ payload: { ...VALID_REPLY, text } }));
  const result = await runCycle(lab, { scenario: 'lab_pick', signals: LAB_SIGNALS, actions: [...LAB_CANDIDATES] }, { decisionId: testDecisionId('disguise'), timestamp: '2026-11-27T12:00:00.000Z', executors: [executor] });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
}

describe('the SEC lab world against disguised replies', () => {
  test('the reply the variants are built on passes, and names the selected note', async () => {
    const { response } = await decideWith(VALID_REPLY.text);
    expect(response!.decision.selected_action).toBe(SELECTED.action_id);
    expect(response!.execution).toMatchObject({ validation_status: 'passed', fallback_used: false });
  });

  test('every disguised violation is caught by its rule: flagged, the fallback used, the rule and the place named', async () => {
    const variants = labVariants();
    const missed: string[] = [];
    for (const variant of variants) {
      const { response, trace } = await decideWith(variant.text);
      const failures: readonly ValidationFailure[] = trace.stages.validate_output?.output.ValidationResult.failures ?? [];
      const caught = failures.find((failure) => variant.protected.caughtBy.includes(failure.id));
      const flagged = response!.execution.fallback_used && response!.degradations.some((degradation) => degradation.stage === 'validate_output') && response!.decision.selected_action === SELECTED.action_id;
      if (caught === undefined || !flagged) {
        missed.push(`${JSON.stringify(variant.protected.phrase)} by ${variant.disguise}: ${JSON.stringify(variant.text)} → ${failures.map((f) => f.id).join(', ') || `no failure (execution ${trace.stages.execute_skill?.output.SkillOutput.status ?? 'none'})`}`);
      } else if (caught.match !== undefined) {
        // The place recorded is in the reply as written and covers what the reader saw.
        expect(caught.match.start).toBeGreaterThanOrEqual(0);
        expect(caught.match.end).toBeLessThanOrEqual(variant.text.length);
        expect(caught.match.end).toBeGreaterThan(caught.match.start);
      }
    }
    const caughtCount = variants.length - missed.length;
    console.log(`disguised violations caught: ${caughtCount}/${variants.length} (${((100 * caughtCount) / variants.length).toFixed(1)}%) over ${LAB_PROTECTED.length} protected phrases`);
    expect(missed).toEqual([]);
  });
});
