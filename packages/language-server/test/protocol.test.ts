/**
 * The language server driven through the protocol, as an editor drives it: the real
 * `adec-language-server` process over stdio, on copies of the example worlds. Diagnostics
 * follow edits (at the right range, cleared by the fix, across files of the world); hover
 * shows types and doc comments; go to definition lands on declarations in any file of the
 * world; completion offers names in scope and keywords; shutdown and exit end the process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Position, Range } from 'vscode-languageserver-protocol';
import { copyExamples, LspClient } from './lsp-client.js';

let workspace: string;
let client: LspClient;

beforeAll(async () => {
  workspace = copyExamples();
  client = await LspClient.start(workspace);
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await client?.stop();
});

const read = (relative: string) => readFileSync(join(workspace, relative), 'utf8');

/** The position of the `occurrence`-th `needle` in `text`, `delta` characters in. */
function positionOf(text: string, needle: string, delta = 0, occurrence = 1): Position {
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`\`${needle}\` not found`);
  return positionAt(text, offset + delta);
}

function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
}

function rangeOf(text: string, needle: string, occurrence = 1): Range {
  const start = positionOf(text, needle, 0, occurrence);
  return { start, end: { line: start.line, character: start.character + needle.length } };
}

/** The range of `name` inside the first occurrence of `context`. */
function rangeWithin(text: string, context: string, name: string): Range {
  const start = positionOf(text, context, context.indexOf(name));
  return { start, end: { line: start.line, character: start.character + name.length } };
}

/** A change replacing `needle` (its first occurrence) in `text` with `replacement`. */
function replace(text: string, needle: string, replacement: string) {
  return { change: { range: rangeOf(text, needle), text: replacement }, text: text.replace(needle, replacement) };
}

describe('diagnostics as you type', () => {
  test('an edit that introduces a type error is reported at its range; fixing it clears it', async () => {
    const path = 'benefits/submit_claim.adec';
    const original = read(path);
    const uri = await client.open(path, original);
    const clean = await client.diagnostics(uri, undefined, { version: 1 });
    expect(clean.diagnostics).toEqual([]);

    const broken = replace(original, 'previous_claim_ids CONTAINS claim_id', 'previous_claim_ids CONTAINS claim_amount');
    const version = await client.change(uri, [broken.change]);
    const reported = await client.diagnostics(uri, (p) => p.diagnostics.length > 0, { version });
    expect(reported.version).toBe(version);
    expect(reported.diagnostics).toHaveLength(1);
    const [error] = reported.diagnostics;
    const operand = { start: positionOf(broken.text, 'CONTAINS claim_amount', 'CONTAINS '.length), end: positionOf(broken.text, 'CONTAINS claim_amount', 'CONTAINS claim_amount'.length) };
    expect(error).toMatchObject({ code: 'ADEC3004', severity: 1, source: 'adec', range: operand });
    expect(error!.message).toMatch(/CONTAINS expects string on the right, found float/);
    expect(error!.relatedInformation?.[0]?.message).toBe('this is float(0..)');
    // The code links to the page that explains it.
    expect(error!.codeDescription?.href).toMatch(/^file:.*\/docs\/diagnostics\/ADEC3004\.md$/);

    const fixed = await client.change(uri, [{ range: error!.range, text: 'claim_id' }]);
    const cleared = await client.diagnostics(uri, (p) => p.diagnostics.length === 0, { version: fixed });
    expect(cleared.version).toBe(fixed);
    await client.close(uri);
  });

  test('the whole world is checked: renaming an attribute reports its uses in the other files, unopened, with did-you-mean', async () => {
    const path = 'benefits/context.adec';
    const original = read(path);
    const uri = await client.open(path, original);
    const renamed = replace(original, 'supplied employee_status', 'supplied employee_state');
    await client.change(uri, [renamed.change]);

    const other = client.uri('benefits/change_plan.adec');
    const published = await client.diagnostics(other, (p) => p.diagnostics.some((d) => d.code === 'ADEC2001'));
    const unknown = published.diagnostics.find((d) => d.code === 'ADEC2001')!;
    const changePlan = read('benefits/change_plan.adec');
    expect(unknown.range).toEqual(rangeOf(changePlan, 'employee_status'));
    expect(unknown.message).toContain('`employee_status`');
    expect(unknown.message).toContain('help: did you mean `employee_state`?');

    await client.change(uri, [{ range: rangeOf(renamed.text, 'employee_state'), text: 'employee_status' }]);
    await client.diagnostics(other, (p) => p.diagnostics.length === 0);
    await client.close(uri);
  });

  test('a duplicate declaration links to the first one through related information', async () => {
    const path = 'benefits/change_plan.adec';
    const original = read(path);
    const uri = await client.open(path, original);
    const duplicated = replace(original, 'rule event_date_missing {', 'rule no_qualifying_event {');
    const version = await client.change(uri, [duplicated.change]);
    const published = await client.diagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'ADEC2010'), { version });
    const duplicate = published.diagnostics.find((d) => d.code === 'ADEC2010')!;
    expect(duplicate.range).toEqual(rangeOf(duplicated.text, 'no_qualifying_event', 3));
    const first = positionOf(original, 'rule no_qualifying_event', 'rule '.length);
    expect(duplicate.relatedInformation).toContainEqual({
      location: { uri, range: { start: first, end: first } },
      message: `first declared at benefits/change_plan.adec:${first.line + 1}:${first.character + 1}`,
    });
    await client.close(uri);
    // Closing the last open file of a world clears what was published for it.
    await client.diagnostics(uri, (p) => p.diagnostics.length === 0);
  });
});

describe('hover', () => {
  test('over an attribute: its declaration with the type, where it belongs, and its comment', async () => {
    const path = 'benefits/submit_claim.adec';
    const text = read(path);
    const uri = await client.open(path, text);
    const hover = await client.hover(uri, positionOf(text, 'claim_amount <= 500.0', 3));
    expect(hover?.range).toEqual({ start: positionOf(text, 'claim_amount <= 500.0'), end: positionOf(text, 'claim_amount <= 500.0', 'claim_amount'.length) });
    const value = (hover?.contents as { value: string }).value;
    expect(value).toContain('```adec\nsupplied claim_amount: float(0..)\n```');
    expect(value).toContain('context attribute of action `submit_claim`');

    const computed = await client.hover(uri, positionOf(text, 'needs_prior_authorization and', 2));
    const doc = (computed?.contents as { value: string }).value;
    expect(doc).toContain('computed needs_prior_authorization: bool');
    expect(doc).toContain('Imaging, surgery and infusions always need prior authorization');

    const shared = await client.hover(uri, positionOf(text, 'request_time - service_date', 1));
    expect((shared?.contents as { value: string }).value).toContain('system request_time: timestamp');
    await client.close(uri);
  });

  test('over an enum member, a rule, a skill field and a built-in function', async () => {
    const adjudication = read('benefits/add_dependent.adec');
    const uri = await client.open('benefits/add_dependent.adec', adjudication);
    const member = await client.hover(uri, positionOf(adjudication, '"domestic_partner"\n', 2));
    expect((member?.contents as { value: string }).value).toContain('member of `relationship`: "child" | "stepchild" | "spouse" | "domestic_partner"');
    const rule = await client.hover(uri, positionOf(adjudication, 'suppresses missing_birth_certificate', 'suppresses '.length));
    expect((rule?.contents as { value: string }).value).toContain('rule missing_birth_certificate\n```\noutcome YELLOW · severity t2 · action `add_dependent`');
    await client.close(uri);

    const skill = read('fitness/skills/fitness_session_rationale.adec');
    const skillUri = await client.open('fitness/skills/fitness_session_rationale.adec', skill);
    const field = await client.hover(skillUri, positionOf(skill, 'payload.rationale CONTAINS_ANY', 'payload.'.length + 1));
    expect((field?.contents as { value: string }).value).toContain('rationale: string(20..200)\n```\noutput field of skill `fitness_session_rationale`');
    await client.close(skillUri);

    const scenario = read('fitness/fitness_daily_session.adec');
    const scenarioUri = await client.open('fitness/fitness_daily_session.adec', scenario);
    const clamp = await client.hover(scenarioUri, positionOf(scenario, 'clamp(', 1));
    expect((clamp?.contents as { value: string }).value).toContain('clamp(value, min, max): int | float');
    const candidate = await client.hover(scenarioUri, positionOf(scenario, 'action.intensity ==', 'action.'.length));
    expect((candidate?.contents as { value: string }).value).toContain('intensity: "low" | "moderate" | "high"\n```\nfield of action type `workout_session`');
    await client.close(scenarioUri);
  });
});

describe('go to definition', () => {
  test('of a rule name in `suppresses` lands on the rule', async () => {
    const path = 'benefits/change_plan.adec';
    const text = read(path);
    const uri = await client.open(path, text);
    const locations = await client.definition(uri, positionOf(text, 'suppresses no_qualifying_event', 'suppresses '.length + 4));
    expect(locations).toEqual([{ uri, range: rangeOf(text, 'no_qualifying_event', 2) }]);
    expect(text.split('\n')[locations[0]!.range.start.line]).toMatch(/^\s*rule no_qualifying_event \{/);
    await client.close(uri);
  });

  test('across the files of a world: a test\'s rule and action, a shared attribute, a fallback skill, a forced action type, an enum member', async () => {
    const tests = read('benefits/change_plan.tests.adec');
    const testsUri = await client.open('benefits/change_plan.tests.adec', tests);
    const changePlan = read('benefits/change_plan.adec');
    const changePlanUri = client.uri('benefits/change_plan.adec');
    expect(await client.definition(testsUri, positionOf(tests, 'by open_enrollment_change', 4))).toEqual([
      { uri: changePlanUri, range: rangeOf(changePlan, 'open_enrollment_change') },
    ]);
    expect(await client.definition(testsUri, positionOf(tests, 'action  change_plan', 9))).toEqual([{ uri: changePlanUri, range: rangeOf(changePlan, 'change_plan') }]);
    expect(await client.definition(testsUri, positionOf(tests, 'requested_plan: "gold"', 2))).toEqual([{ uri: changePlanUri, range: rangeOf(changePlan, 'requested_plan') }]);
    // A test value of an enum attribute names the member.
    expect(await client.definition(testsUri, positionOf(tests, 'life_event: "birth"', 'life_event: "'.length))).toEqual([{ uri: changePlanUri, range: rangeOf(changePlan, '"birth"') }]);
    await client.close(testsUri);

    const context = read('benefits/context.adec');
    const changePlanOpen = await client.open('benefits/change_plan.adec', changePlan);
    expect(await client.definition(changePlanOpen, positionOf(changePlan, 'request_time and', 1))).toEqual([{ uri: client.uri('benefits/context.adec'), range: rangeOf(context, 'request_time') }]);
    await client.close(changePlanOpen);

    const skill = read('fitness/skills/fitness_session_rationale.adec');
    const skillUri = await client.open('fitness/skills/fitness_session_rationale.adec', skill);
    const fallback = read('fitness/skills/decision_rationale_template.adec');
    expect(await client.definition(skillUri, positionOf(skill, 'fallback    decision_rationale_template', 'fallback    '.length))).toEqual([
      { uri: client.uri('fitness/skills/decision_rationale_template.adec'), range: rangeOf(fallback, 'decision_rationale_template') },
    ]);
    expect(await client.definition(skillUri, positionOf(skill, 'action_metadata.session_type]', 'action_metadata.'.length))).toEqual([{ uri: skillUri, range: rangeWithin(skill, 'session_type:', 'session_type') }]);
    await client.close(skillUri);

    const scenario = read('fitness/fitness_daily_session.adec');
    const scenarioUri = await client.open('fitness/fitness_daily_session.adec', scenario);
    expect(await client.definition(scenarioUri, positionOf(scenario, 'force rest_day', 'force '.length))).toEqual([{ uri: scenarioUri, range: rangeWithin(scenario, 'action_type rest_day', 'rest_day') }]);
    expect(await client.definition(scenarioUri, positionOf(scenario, 'action.intensity == "high"', 'action.intensity == "'.length))).toEqual([{ uri: scenarioUri, range: rangeWithin(scenario, '"moderate" | "high"', '"high"') }]);
    await client.close(scenarioUri);
  });

  test('find references: every use of a rule, declaration included on request', async () => {
    const path = 'benefits/change_plan.adec';
    const text = read(path);
    const uri = await client.open(path, text);
    const references = await client.references(uri, positionOf(text, 'rule no_qualifying_event', 'rule '.length), true);
    const files = (references ?? []).map((l) => l.uri.split('/').pop()).sort();
    expect(files).toEqual(['change_plan.adec', 'change_plan.adec', 'change_plan.tests.adec']);
    await client.close(uri);
  });
});

describe('completion', () => {
  /** Inserts `typed` on a new line after the line containing `anchor`; returns the doc and the cursor. */
  async function typeAfter(path: string, anchor: string, typed: string) {
    const text = read(path);
    const uri = await client.open(path, text);
    const lineEnd = text.indexOf('\n', text.indexOf(anchor));
    const at = positionAt(text, lineEnd);
    await client.change(uri, [{ range: { start: at, end: at }, text: `\n${typed}` }]);
    const cursor = { line: at.line + 1, character: typed.length };
    return { uri, cursor, items: await client.completion(uri, cursor) };
  }

  test('after a partial keyword offers it, replacing what was typed', async () => {
    const { uri, cursor, items } = await typeAfter('benefits/change_plan.adec', 'reason   "Coverage ended with employment', '    supp');
    const keyword = items.find((i) => i.label === 'suppresses');
    expect(keyword).toMatchObject({ kind: 14 /* Keyword */, textEdit: { newText: 'suppresses', range: { start: { line: cursor.line, character: 4 }, end: cursor } } });
    await client.close(uri);

    const top = await typeAfter('benefits/world.adec', '}', 'sce');
    expect(top.items.map((i) => i.label)).toContain('scenario');
    await client.close(top.uri);
  });

  test('names in scope: attributes in a rule, rule names after `suppresses`, fields after a dot, enum members to compare with', async () => {
    const inRule = await typeAfter('benefits/change_plan.adec', 'rule open_enrollment_change {', '    when open_');
    const labels = inRule.items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['open_enrollment', 'open_claims', 'employee_status', 'request_time', 'clamp', 'and', 'CONTAINS']));
    expect(labels).not.toContain('claim_amount'); // an attribute of another action
    await client.close(inRule.uri);

    const suppressed = await typeAfter('benefits/change_plan.adec', 'rule open_enrollment_change {', '    suppresses ');
    const rules = suppressed.items.map((i) => i.label);
    expect(rules).toEqual(expect.arrayContaining(['no_qualifying_event', 'event_window_closed', 'terminated_employee_cannot_change']));
    expect(rules).not.toContain('open_enrollment_change'); // itself
    expect(rules).not.toContain('duplicate_claim'); // a rule of another action
    await client.close(suppressed.uri);

    const dotted = await typeAfter('fitness/skills/fitness_session_rationale.adec', 'invariant "FIT-003"', '    payload.');
    expect(dotted.items.map((i) => i.label).sort()).toEqual(['display_parameters', 'encouragement', 'rationale']);
    await client.close(dotted.uri);

    const compared = await typeAfter('benefits/add_dependent.adec', 'rule child_under_26 {', '    when relationship == ');
    expect(compared.items.map((i) => i.label)).toEqual(expect.arrayContaining(['"child"', '"stepchild"', '"spouse"', '"domestic_partner"']));
    await client.close(compared.uri);

    const byRule = await typeAfter('benefits/change_plan.tests.adec', 'expect  RED by no_qualifying_event', '  expect  RED by ');
    expect(byRule.items.map((i) => i.label)).toContain('event_window_closed');
    await client.close(byRule.uri);
  });
});

describe('formatting', () => {
  /** Indentation and alignment collapsed to single spaces, and spaces left at the end of every line. */
  const scrambled = (text: string) => text.replace(/ {2,}/g, ' ').replace(/\n/g, '  \n');

  test('every file of the examples, its layout scrambled, formats back to the example as written', async () => {
    for (const path of ['benefits/submit_claim.adec', 'benefits/change_plan.tests.adec', 'fitness/skills/fitness_session_rationale.adec', 'fitness/tests.adec']) {
      const original = read(path);
      const text = scrambled(original);
      expect(text).not.toBe(original);
      const uri = await client.open(path, text);
      const edits = await client.formatting(uri);
      // One edit over the whole document, whatever the editor's tab options.
      expect(edits, path).toHaveLength(1);
      expect(edits[0]!.range).toEqual({ start: { line: 0, character: 0 }, end: positionAt(text, text.length) });
      expect(edits[0]!.newText, path).toBe(original);
      await client.close(uri);
    }
  });

  test('a formatted document gets no edits, and one with a syntax error is left as it is while the server keeps serving', async () => {
    const path = 'benefits/add_dependent.adec';
    const original = read(path);
    const uri = await client.open(path, original);
    expect(await client.formatting(uri)).toEqual([]);

    const broken = replace(original, 'rule child_under_26 {', 'rule child_under_26 {{');
    const version = await client.change(uri, [broken.change]);
    await client.diagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'ADEC1003'), { version });
    expect(await client.formatting(uri)).toEqual([]);
    const shown = await client.hover(uri, positionOf(broken.text, 'relationship', 1));
    expect(JSON.stringify(shown?.contents)).toMatch(/relationship/);
    await client.close(uri);
  });
});

describe('lifecycle', () => {
  test('shutdown then exit ends the process with code 0', async () => {
    const second = await LspClient.start(workspace);
    const uri = await second.open('fitness/tests.adec', read('fitness/tests.adec'));
    await second.diagnostics(uri);
    expect(await second.stop()).toBe(0);
    expect(second.alive).toBe(false);
  });
});
