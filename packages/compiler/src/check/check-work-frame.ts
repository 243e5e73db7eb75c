/**
 * `on STATUS { … }` work_frame templates: what the agent is told to do next for each
 * status (ARCHITECTURE.md "Composition root", step 6).
 */
import { WORK_FRAME_LIST_FIELDS as LIST_FIELDS, WORK_FRAME_TEXT_FIELDS as TEXT_FIELDS } from '@adec/abi';
import type { WorkFrameFieldDecl, WorkFrameTemplateDecl } from '@adec/grammar';
import type { RuleOutcome, WorkFrameTemplate } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { asOutcome, outcomeHelp } from './spellings.js';
import { didYouMeanName } from './suggestions.js';

const FIELDS: readonly string[] = [...TEXT_FIELDS, ...LIST_FIELDS];

type MutableTemplate = { -readonly [K in keyof WorkFrameTemplate]: WorkFrameTemplate[K] };

export function checkWorkFrames(
  decls: readonly WorkFrameTemplateDecl[],
  action: string,
  sink: DiagnosticSink,
): Partial<Record<RuleOutcome, WorkFrameTemplate>> {
  const templates: Partial<Record<RuleOutcome, WorkFrameTemplate>> = {};
  const firstByStatus = new Map<RuleOutcome, WorkFrameTemplateDecl>();
  for (const decl of decls) {
    const status = asOutcome(decl.status.text);
    if (status === undefined) {
      if (decl.status.text !== '') sink.report('ADEC4015', decl.status.span, { text: decl.status.text }, outcomeHelp(decl.status.text));
      checkFields(decl, action, sink);
      continue;
    }
    const first = firstByStatus.get(status);
    if (first !== undefined) {
      sink.report('ADEC4009', decl.status.span, { clause: `on ${status}`, owner: `action \`${action}\`` }, { notes: [firstDeclaredAt(first.status.span)] });
      checkFields(decl, action, sink);
      continue;
    }
    firstByStatus.set(status, decl);
    templates[status] = checkFields(decl, action, sink);
  }
  return templates;
}

function checkFields(decl: WorkFrameTemplateDecl, action: string, sink: DiagnosticSink): WorkFrameTemplate {
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
