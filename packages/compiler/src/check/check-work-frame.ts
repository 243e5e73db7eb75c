/**
 * `on STATUS { … }` work_frame templates: what the agent is told to do next for each
 * status (ARCHITECTURE.md "Composition root", step 6).
 *
 * The action lists name tools the agent may or may not call: often the world's own actions,
 * sometimes tools of the agent's that adec does not know. So a name that is not an action is
 * fine, but one a single edit away from an action (`add_dependant` in the world of
 * `add_dependent`: a letter changed, added, dropped or two swapped) is almost certainly that
 * action mistyped, and a forbidden action mistyped is an action the agent is not told to avoid
 * (ADEC5009). Two edits away is another tool as often as a typo (`resubmit_claim` beside
 * `submit_claim`), so it is left alone.
 */
import { WORK_FRAME_LIST_FIELDS as LIST_FIELDS, WORK_FRAME_TEXT_FIELDS as TEXT_FIELDS } from '@adec/abi';
import { editDistance } from '@adec/diagnostics';
import type { StringLiteral, WorkFrameFieldDecl, WorkFrameTemplateDecl } from '@adec/grammar';
import type { RuleOutcome, WorkFrameTemplate } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { asOutcome, outcomeHelp } from './spellings.js';
import { didYouMeanName } from './suggestions.js';

const FIELDS: readonly string[] = [...TEXT_FIELDS, ...LIST_FIELDS];
const ACTION_LIST_FIELDS: readonly string[] = ['allowed_actions', 'forbidden_actions'];

type MutableTemplate = { -readonly [K in keyof WorkFrameTemplate]: WorkFrameTemplate[K] };

/** `actions`: the names of every action of the world. */
export function checkWorkFrames(
  decls: readonly WorkFrameTemplateDecl[],
  action: string,
  actions: readonly string[],
  sink: DiagnosticSink,
): Partial<Record<RuleOutcome, WorkFrameTemplate>> {
  const templates: Partial<Record<RuleOutcome, WorkFrameTemplate>> = {};
  const firstByStatus = new Map<RuleOutcome, WorkFrameTemplateDecl>();
  for (const decl of decls) {
    const status = asOutcome(decl.status.text);
    if (status === undefined) {
      if (decl.status.text !== '') sink.report('ADEC4015', decl.status.span, { text: decl.status.text }, outcomeHelp(decl.status.text));
      checkFields(decl, action, actions, sink);
      continue;
    }
    const first = firstByStatus.get(status);
    if (first !== undefined) {
      sink.report('ADEC4009', decl.status.span, { clause: `on ${status}`, owner: `action \`${action}\`` }, { notes: [firstDeclaredAt(first.status.span)] });
      checkFields(decl, action, actions, sink);
      continue;
    }
    firstByStatus.set(status, decl);
    templates[status] = checkFields(decl, action, actions, sink);
  }
  return templates;
}

function checkFields(decl: WorkFrameTemplateDecl, action: string, actions: readonly string[], sink: DiagnosticSink): WorkFrameTemplate {
  const template: MutableTemplate = {};
  const seen = new Map<string, WorkFrameFieldDecl>();
  for (const field of decl.fields) {
    const name = field.name.name;
    if (!FIELDS.includes(name)) {
      if (name !== '') sink.report('ADEC2013', field.name.span, { name }, didYouMeanName(name, FIELDS));
      continue;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      sink.report('ADEC4009', field.name.span, { clause: name, owner: `\`on ${decl.status.text}\` of action \`${action}\`` }, { notes: [firstDeclaredAt(first.name.span)] });
      continue;
    }
    seen.set(name, field);
    setField(template, name, field, sink);
    if (ACTION_LIST_FIELDS.includes(name) && field.value.kind === 'StringListLiteral') checkActionNames(name, field.value.items, actions, sink);
  }
  return template;
}

function setField(template: MutableTemplate, name: string, field: WorkFrameFieldDecl, sink: DiagnosticSink): void {
  const value = field.value;
  const isList = (LIST_FIELDS as readonly string[]).includes(name);
  if (isList !== (value.kind === 'StringListLiteral')) {
    const [expected, found] = isList ? ['list<string>', 'string'] : ['string', 'list<string>'];
    sink.report('ADEC3001', value.span, { expected, found }, { label: `this is ${found}` });
    return;
  }
  if (value.kind === 'StringListLiteral') {
    template[name as (typeof LIST_FIELDS)[number]] = value.items.map((i) => i.value);
  } else {
    template[name as (typeof TEXT_FIELDS)[number]] = value.value;
  }
}

function checkActionNames(field: string, items: readonly StringLiteral[], actions: readonly string[], sink: DiagnosticSink): void {
  for (const item of items) {
    if (actions.includes(item.value)) continue;
    const close = actions.find((action) => editDistance(item.value, action) === 1);
    if (close !== undefined) sink.report('ADEC5009', item.span, { field, name: item.value }, { help: `did you mean \`${close}\`?` });
  }
}
