/**
 * The benign half of the Skill Execution Contract's adversarial acceptance (SECURITY.md, "A
 * skill that tries to take authority"): every reply of the benign corpus
 * (sec-corpus/benign-rationales.ts), which explains the selected action the way a copywriter
 * would, goes through the whole ADE cycle in the library with a scripted model answering it,
 * and must come out as it went in: the entry's action selected, the reply used after every
 * check of stage 7 passed, no fallback, no authority violation logged. A checker strict enough
 * to catch every disguised violation must still pass all of these; the rate is printed.
 *
 * The entries run in one loop, so that a failure lists every failing entry at once, with the
 * checks and failure ids of its trace: enough to tell whether the checker or the text is wrong.
 */
import { beforeAll, expect, test } from 'vitest';
import type { LoadedModule } from '@adec/runtime';
import { llmStubExecutor, runCycle, type ValidationFailure } from '@adec/engine';
import { BENIGN_CASES, benignProblems, passRate, WORLD_DIRS, type CorpusWorld } from './sec-corpus/benign-cases.js';
import { FITNESS_CORPUS, LAB_CORPUS } from './sec-corpus/benign-rationales.js';
import { loadWorld } from './selection-fixtures.js';
import { testDecisionId } from '../../../test/support/decision-ids.js';

const TIMESTAMP = '2026-11-27T09:00:00.000Z';

let worlds: Record<CorpusWorld, LoadedModule>;
beforeAll(async () => {
  const [fitness, lab] = await Promise.all([loadWorld(WORLD_DIRS.fitness), loadWorld(WORLD_DIRS['sec-lab'])]);
  worlds = { fitness, 'sec-lab': lab };
});

test('the corpus holds at least 220 benign replies: 160 for the fitness example, 60 for the SEC lab', () => {
  expect(FITNESS_CORPUS.length).toBeGreaterThanOrEqual(160);
  expect(LAB_CORPUS.length).toBeGreaterThanOrEqual(60);
  expect(new Set(BENIGN_CASES.map((benign) => benign.id)).size).toBe(BENIGN_CASES.length);
});

test('every benign reply passes every check of stage 7, through runCycle with a scripted model', async () => {
  const failures: string[] = [];
  for (const benign of BENIGN_CASES) {
    const violations: ValidationFailure[] = [];
    const result = await runCycle(
      worlds[benign.world],
      { scenario: benign.scenario, signals: benign.signals, actions: benign.actions },
      {
        decisionId: testDecisionId(`benign-${benign.id}`),
        timestamp: TIMESTAMP,
        executors: [llmStubExecutor(() => ({ payload: benign.reply }))],
        onAuthorityViolation: (found) => violations.push(...found),
      },
    );
    const problem = result.ok ? benignProblems(benign, result.response, result.trace.stages.validate_output?.output.ValidationResult ?? null, violations) : `${benign.id}: ${result.error.code}: ${result.error.message}`;
    if (problem !== null) failures.push(problem);
  }
  const passed = BENIGN_CASES.length - failures.length;
  console.log(passRate('benign corpus (library)', passed, BENIGN_CASES.length));
  expect(failures.length, `${failures.length} benign replies were refused:\n${failures.join('\n')}\n`).toBe(0);
});
