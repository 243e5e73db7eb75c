/**
 * `adec test` on skill tests (`expect skill output`, `expect skill validation`, `model_reply`),
 * over the learning-coach world of docs/language-guide.md §13: the example passes with every
 * template rendered; for each way a skill can answer (each template, a model's reply passing or
 * failing each kind of check) every form of expectation is generated right and wrong, run in one
 * world, and each wrong one fails with its expected and actual lines and the run exits 1. The
 * checker's list of check names holds every id the engine's universal checks report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UNIVERSAL_PROHIBITIONS } from '@adec/engine';
import { runCli, tempWorkspace } from '../run-cli.js';
import { REPO_ROOT } from '../../../../test/support/repo.js';
import { SEC_CHECK_NAMES } from '../../../compiler/src/check/sec-check-names.js';
import { RANKING_LANGUAGE } from '../../../engine/src/skills/text/ranking-language.js';

const EXAMPLE = 'examples/learning-coach';
const WORLD_FILES = ['world.adec', 'next_activity.adec', 'skills/lesson_pitch.adec', 'skills/review_note.adec'];

const LESSON = '{ action_id: "lesson-past-tense", type: "lesson", title: "The past tense", level: "intermediate", minutes: 20 }';
const REVIEW = '{ action_id: "review-short", type: "review", title: "Quick review", cards: 20, minutes: 10 }';

/** One way the selected action's skill answers: the selection, and what the cycle gives for it. */
interface SkillAnswer {
  readonly name: string;
  readonly signals: string;
  readonly action: string;
  readonly selected: string;
  readonly reply?: string;
  /** The note of the payload the response carries. */
  readonly note: string;
  /** How `adec test` names the failures of the skill's output; empty when it passed. */
  readonly failures: readonly string[];
}

const ANSWERS: readonly SkillAnswer[] = [
  { name: 'review note, welcome back', signals: '{ since_last_session: "9d", lessons_this_week: 1 }', action: REVIEW, selected: 'review-short', note: 'Welcome back after 9 days! Quick review eases you in.', failures: [] },
  { name: 'review note, default', signals: '{ cards_due: 40, lessons_this_week: 1 }', action: REVIEW, selected: 'review-short', note: 'Quick review: 20 of your 40 due cards.', failures: [] },
  { name: 'no model, first lesson of the week', signals: '{ lessons_this_week: 0 }', action: LESSON, selected: 'lesson-past-tense', note: 'A fresh week starts with The past tense (20 minutes).', failures: [] },
  { name: 'no model, another lesson', signals: '{ lessons_this_week: 2 }', action: LESSON, selected: 'lesson-past-tense', note: 'Next up: The past tense, 20 minutes.', failures: [] },
  ...[
    { name: 'a model reply that passes', reply: '{ note: "Twenty minutes with The past tense, told clearly.", tone: "warm" }', failures: [] },
    { name: 'a reply without the lesson', reply: '{ note: "A grammar lesson is waiting for you.", tone: "warm" }', failures: ['STUDY-001'] },
    { name: 'a reply with a percentage', reply: '{ note: "The past tense: 50% of learners finish it", tone: "warm" }', failures: ['STUDY-002'] },
    { name: 'a reply promising fluency', reply: '{ note: "The past tense makes you fluent", tone: "brisk" }', failures: ['STUDY-PROHIB-001'] },
    { name: 'a reply with a link', reply: '{ note: "The past tense, and see more at www.example.com", tone: "warm" }', failures: ['INV-005'] },
    { name: 'a reply with a field of its own', reply: '{ note: "The past tense in twenty minutes", mood: "happy" }', failures: ['schema_valid'] },
  ].map((answer) => ({
    ...answer,
    signals: '{ lessons_this_week: 2 }',
    action: LESSON,
    selected: 'lesson-past-tense',
    // A reply that fails is replaced by the fallback's payload.
    note: answer.failures.length === 0 ? 'Twenty minutes with The past tense, told clearly.' : 'Next up: The past tense, 20 minutes.',
  })),
];

/** An expectation about one answer, written as the test writes it, and the lines a failure prints. */
interface Case {
  readonly answer: SkillAnswer;
  readonly form: string;
  readonly expectation: string;
  readonly passes: boolean;
  readonly diff: readonly string[];
}

function casesOf(answer: SkillAnswer): Case[] {
  const wrongNote = `${answer.note} (not quite)`;
  const word = answer.note.split(' ')[1]!;
  const failedAs = answer.failures.length === 0 ? 'passed' : `failed ${answer.failures.map((f) => JSON.stringify(f)).join(', ')}`;
  const cases = [
    { form: 'exact note', expectation: `skill output { note: ${JSON.stringify(answer.note)} }`, passes: true, diff: [] },
    {
      form: 'wrong note',
      expectation: `skill output { note: ${JSON.stringify(wrongNote)} }`,
      passes: false,
      diff: [`    expected  skill output note: ${JSON.stringify(wrongNote)}`, `    actual    skill output note: ${JSON.stringify(answer.note)}`],
    },
    { form: 'note contains', expectation: `skill output { note CONTAINS ${JSON.stringify(word)} }`, passes: true, diff: [] },
    {
      form: 'note lacks',
      expectation: 'skill output { note CONTAINS "tomorrow" }',
      passes: false,
      diff: ['    expected  skill output note CONTAINS "tomorrow"', `    actual    skill output note: ${JSON.stringify(answer.note)}`],
    },
    { form: 'validation as it went', expectation: `skill validation ${failedAs}`, passes: true, diff: [] },
    answer.failures.length === 0
      ? { form: 'validation failing', expectation: 'skill validation failed', passes: false, diff: ['    expected  skill validation failed', '    actual    skill validation passed'] }
      : { form: 'validation passing', expectation: 'skill validation passed', passes: false, diff: ['    expected  skill validation passed', `    actual    skill validation ${failedAs}`] },
  ];
  return cases.map((c) => ({ ...c, answer }));
}

/**
 * A reply outside the output schema in a test that expects validation to pass could never pass:
 * `adec check` refuses it at the reply (ADEC4031), so it is no case `adec test` runs.
 */
const refusedByCheck = (c: Case) => c.answer.failures.includes('schema_valid') && c.expectation === 'skill validation passed';
const CASES = ANSWERS.flatMap(casesOf).filter((c) => !refusedByCheck(c));
const REFUSED = ANSWERS.flatMap(casesOf).filter(refusedByCheck);

function testText(c: Case, index: number): string {
  const reply = c.answer.reply === undefined ? '' : `\n  model_reply ${c.answer.reply}`;
  return `test "${index}: ${c.answer.name}, ${c.form}" {
  scenario    next_activity
  signals     ${c.answer.signals}
  actions     [ ${c.answer.action} ]${reply}
  expect      selected "${c.answer.selected}"
  expect      ${c.expectation}
}
`;
}

function exampleWorld(tests: string): string {
  const files = Object.fromEntries(WORLD_FILES.map((file) => [`coach/${file}`, readFileSync(join(REPO_ROOT, EXAMPLE, file), 'utf8')]));
  return tempWorkspace({ ...files, 'coach/skill.tests.adec': tests });
}

describe('adec test, skill tests', () => {
  test(`${EXAMPLE}: its skill tests pass and every template renders`, async () => {
    const run = await runCli(['test', EXAMPLE], REPO_ROOT);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`✓ a model's pitch that forgets the lesson is replaced by the fallback (${EXAMPLE}/next_activity.tests.adec:68)\n`);
    expect(run.stdout).toContain('  template coverage: 4/4 (100%)\n\n7 passed, 0 failed\n');
  });

  test(`${CASES.length} generated expectations over ${ANSWERS.length} answers: each right one passes, each wrong one fails with expected and actual`, async () => {
    const cwd = exampleWorld(CASES.map(testText).join('\n'));
    const run = await runCli(['test', 'coach'], cwd);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const failing = CASES.filter((c) => !c.passes).length;
    expect(run.stdout).toContain(`\n${CASES.length - failing} passed, ${failing} failed\n`);
    // Each test's report: its header line and, for a failure, the lines up to the blank line after it.
    const reports = run.stdout.split(/\n(?=[✓✗] )/);
    for (const [index, c] of CASES.entries()) {
      const report = reports.find((r) => r.slice(2).startsWith(`${index}: `));
      expect(report, `${c.answer.name}, ${c.form}`).toBeDefined();
      expect(report!.startsWith(c.passes ? '✓' : '✗'), `${c.answer.name}, ${c.form}: ${report}`).toBe(true);
      if (!c.passes) expect(report!.split('\n').slice(1, 1 + c.diff.length), `${c.answer.name}, ${c.form}`).toEqual(c.diff);
    }
  });

  test.each(REFUSED.map((c) => [c.answer.name, c] as const))('%s, expected to pass validation, is refused by the checker at the reply', async (_, c) => {
    const cwd = exampleWorld(testText(c, 0));
    const run = await runCli(['test', 'coach'], cwd);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error ADEC4031: skill `lesson_pitch` has no output field `mood`');
  });

  test('a failure shows how the skill ran: its validation failures and whose payload the response carries', async () => {
    const [answer] = ANSWERS.filter((a) => a.failures.includes('STUDY-001'));
    const cwd = exampleWorld(testText(casesOf(answer!)[5]!, 0));
    const run = await runCli(['test', 'coach'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '    expected  skill validation passed',
        '    actual    skill validation failed "STUDY-001"',
        '    skill',
        '      lesson_pitch (model_reply): validation failed',
        '        STUDY-001 at payload: STUDY-001 (The note names the lesson: payload.note CONTAINS action_metadata.title) does not hold',
        '      payload from lesson_note, template default (fallback tier 2: validation_failed): {"note":"Next up: The past tense, 20 minutes."}',
        '',
      ].join('\n'),
    );
  });

  test('templates no test rendered are listed per skill', async () => {
    const [answer] = ANSWERS;
    const cwd = exampleWorld(testText(casesOf(answer!)[0]!, 0));
    const run = await runCli(['test', 'coach'], cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(['  template coverage: 1/4 (25%)', '  templates never rendered', '    lesson_note: first_of_the_week, default', '    review_note: default', ''].join('\n'));
  });

  // The checker refuses a name no failure can carry (ADEC4032): its list must hold every id stage 7 reports.
  test('every id a universal check of stage 7 reports is a name a test may expect', () => {
    const reported = [...UNIVERSAL_PROHIBITIONS.map((p) => p.id), ...RANKING_LANGUAGE.map((kind) => kind.id), 'PROHIB-COMPETITOR', 'NAMES_OTHER_ACTION'];
    expect(SEC_CHECK_NAMES).toEqual(expect.arrayContaining(reported));
  });
});
