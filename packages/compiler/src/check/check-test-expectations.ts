/**
 * What an adjudication test may expect besides its status and winning rule: the reason (the
 * winning rule's text, or the decision's basis as a reason code), work_frame fields, and the
 * missing evidence. Each is checked against the action, so a test cannot expect a reason code,
 * a field or an attribute that does not exist, nor a reason text its rule can never give.
 */
import { WORK_FRAME_FIELDS as DECISION_WORK_FRAME_FIELDS, type WorkFrameFieldKind } from '@adec/abi';
import { DECISION_BASES, STRING, type CheckedTest, type DecisionBasisCode, type Type } from '../model/index.js';
import type { ActionInfo } from './check-action.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import type { ExpectMember, MemberLookup, MemberOf } from './check-test.js';
import { renderingNotes, templateCanRead, templateOutline } from './reason-template.js';
import type { WorkFrameTemplate } from '../model/index.js';
import { asOutcome } from './spellings.js';
import { didYouMeanName } from './suggestions.js';
import { checkRecordValues } from './test-record-values.js';

type AdjudicationTest = Extract<CheckedTest, { kind: 'adjudication' }>;
type Expectations = Pick<AdjudicationTest, 'expectReason' | 'expectBasis' | 'expectWorkFrame' | 'expectMissingEvidence'>;

/** How a test writes the value of each kind of work_frame field. */
const TYPE_OF_KIND: Readonly<Record<WorkFrameFieldKind, Type>> = {
  text: STRING,
  texts: { kind: 'list', element: STRING },
  text_or_null: { kind: 'optional', inner: STRING },
};
/** The fields of a decision's work_frame, as a test writes their values. */
const WORK_FRAME_FIELDS: ReadonlyMap<string, Type> = new Map(Object.entries(DECISION_WORK_FRAME_FIELDS).map(([name, kind]) => [name, TYPE_OF_KIND[kind]]));

/** The test's reason, work_frame and missing-evidence expectations; undefined when one is wrong (reported). */
export function checkDecisionExpectations(test: string, action: ActionInfo, member: MemberLookup, expect: ExpectMember | undefined, sink: DiagnosticSink): Expectations | undefined {
  const status = expect?.kind === 'TestExpectStatus' ? expect : undefined;
  const reason = member('TestExpectReason');
  const workFrame = member('TestExpectWorkFrame');
  const missing = member('TestExpectMissingEvidence');
  const checkedReason = reason === undefined ? {} : checkReason(test, reason, action, status, sink);
  const checkedWorkFrame = workFrame === undefined ? {} : checkWorkFrame(test, workFrame, action, status, sink);
  const given = new Set(member('TestContext')?.value.entries.map((entry) => entry.key.name) ?? []);
  const checkedMissing = missing === undefined ? {} : checkMissingEvidence(test, missing, action, status, given, sink);
  if (checkedReason === undefined || checkedWorkFrame === undefined || checkedMissing === undefined) return undefined;
  return { ...checkedReason, ...checkedWorkFrame, ...checkedMissing };
}

/** `expect reason CODE` names a basis; `expect reason "…"` a text the expected rule can give. */
function checkReason(test: string, member: MemberOf<'TestExpectReason'>, action: ActionInfo, status: MemberOf<'TestExpectStatus'> | undefined, sink: DiagnosticSink): Expectations | undefined {
  const reason = member.reason;
  if (reason.kind === 'Identifier') {
    if ((DECISION_BASES as readonly string[]).includes(reason.name)) return { expectBasis: reason.name as DecisionBasisCode };
    if (reason.name !== '') {
      sink.report('ADEC2030', reason.span, { name: reason.name }, { ...didYouMeanName(reason.name, DECISION_BASES), notes: [`a reason code is how the status was reached: ${DECISION_BASES.join(', ')}`] });
    }
    return undefined;
  }
  const ruleName = status?.rule?.name;
  const rule = action.decl.rules.find((r) => r.id.name === ruleName);
  if (rule === undefined) return { expectReason: reason.value };
  const clause = rule.clauses.find((c) => c.kind === 'ReasonClause');
  const text = JSON.stringify(reason.value);
  if (clause === undefined) {
    sink.report('ADEC4026', reason.span, { test, problem: `expects reason ${text} from rule \`${rule.id.name}\`, which has no \`reason\`` });
    return undefined;
  }
  const checked = action.reasons.get(rule.id.name);
  if (checked !== undefined && !templateCanRead(checked, reason.value)) {
    sink.report('ADEC4026', reason.span, { test, problem: `expects reason ${text}, which rule \`${rule.id.name}\` never gives` }, { notes: [`its reason reads ${JSON.stringify(templateOutline(checked))}`, ...renderingNotes(checked)] });
    return undefined;
  }
  return { expectReason: reason.value };
}

/**
 * The work frame of a decision comes from the action's `on STATUS { … }` for its status. A field
 * that template sets reads as it sets it, so a test expecting another value for the status it
 * expects never passes (typically a value from another status's template). `next_action` is
 * left out: missing evidence turns it into `gather_evidence_and_retry`.
 */
function checkWorkFrame(test: string, member: MemberOf<'TestExpectWorkFrame'>, action: ActionInfo, status: MemberOf<'TestExpectStatus'> | undefined, sink: DiagnosticSink): Expectations | undefined {
  const fields = [...WORK_FRAME_FIELDS.keys()];
  const values = checkRecordValues(member.value, test, sink, (key) => {
    const type = WORK_FRAME_FIELDS.get(key.name);
    if (type === undefined) sink.report('ADEC2013', key.span, { name: key.name }, didYouMeanName(key.name, fields));
    return type;
  });
  if (values === undefined) return undefined;
  const expected = status === undefined ? undefined : asOutcome(status.status.text);
  const template = expected === undefined ? undefined : action.workFrames[expected];
  let valid = true;
  for (const entry of template === undefined ? [] : member.value.entries) {
    const field = entry.key.name as keyof WorkFrameTemplate;
    const set = template![field];
    if (field === 'next_action' || set === undefined || JSON.stringify(set) === JSON.stringify(values[field])) continue;
    sink.report('ADEC4026', entry.value.span, { test, problem: `expects work_frame.${field} ${JSON.stringify(values[field])}, which a ${expected!} decision of \`${action.name}\` never has` }, { notes: [`its \`on ${expected!}\` sets ${field} ${JSON.stringify(set)}`] });
    valid = false;
  }
  return valid ? { expectWorkFrame: values } : undefined;
}

/**
 * Only supplied attributes are ever missing evidence, and only a YELLOW asks for evidence. An
 * attribute is missing when the request lacks it or gives a value its type refuses; a test's
 * context values are checked against their types, so in a test it is missing only when the
 * context leaves it out and nothing fills it in (no default, not optional). Any other expected
 * one can never be missing, and the test never passes.
 */
function checkMissingEvidence(
  test: string,
  member: MemberOf<'TestExpectMissingEvidence'>,
  action: ActionInfo,
  status: MemberOf<'TestExpectStatus'> | undefined,
  given: ReadonlySet<string>,
  sink: DiagnosticSink,
): Expectations | undefined {
  const supplied = action.view.attributes.filter((a) => a.decl.source === 'supplied').map((a) => a.name);
  const seen = new Map<string, MemberOf<'TestExpectMissingEvidence'>['attributes'][number]>();
  let valid = true;
  for (const name of member.attributes) {
    sink.recorder?.refer(name.span, action.view.byName.get(name.name)?.target);
    const first = seen.get(name.name);
    if (first !== undefined) {
      sink.report('ADEC4009', name.span, { clause: name.name, owner: '`expect missing_evidence`' }, { notes: [firstDeclaredAt(first.span)] });
      valid = false;
      continue;
    }
    seen.set(name.name, name);
    const attribute = action.view.byName.get(name.name);
    const source = attribute?.decl.source;
    if (source === 'supplied') {
      const neverMissing = given.has(name.name) ? 'the test\'s context gives it' : attribute!.defaultValue !== undefined ? 'it has a default, which fills it in when a request leaves it out' : attribute!.type.kind === 'optional' ? 'it is optional, so a request without it is complete' : undefined;
      if (neverMissing !== undefined) {
        sink.report('ADEC4026', name.span, { test, problem: `expects \`${name.name}\` as missing evidence, which it never is: ${neverMissing}` });
        valid = false;
      }
      continue;
    }
    valid = false;
    const help = source === 'system' ? { help: 'system values are captured by the host, never asked for' } : source === 'computed' ? { help: `\`${name.name}\` is computed from the other attributes, never asked for` } : didYouMeanName(name.name, supplied);
    if (name.name !== '') sink.report('ADEC2031', name.span, { name: name.name, action: action.name }, help);
  }
  const expected = status === undefined ? undefined : asOutcome(status.status.text);
  if (member.attributes.length > 0 && expected !== undefined && expected !== 'YELLOW') {
    sink.report('ADEC4026', member.span, { test, problem: `expects missing evidence with status ${expected}: only a YELLOW decision asks for evidence` });
    valid = false;
  }
  return valid ? { expectMissingEvidence: member.attributes.map((a) => a.name) } : undefined;
}
