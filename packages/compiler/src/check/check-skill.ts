/**
 * Skills under the Skill Execution Contract (docs/spec/skill-contract.md): identity and version, type
 * (llm needs a prompt, deterministic needs templates), timeouts, a deterministic fallback,
 * the input and output schemas, invariants in the SEC check language, prohibited
 * patterns and templates.
 */
import type { FieldDecl, SkillDecl, SkillMember, SkillTemplateDecl } from '@adec/grammar';
import type { Span } from '@adec/diagnostics';
import type { CheckedInvariant, CheckedProhibition, CheckedSkill, CheckedSkillTemplate, RecordField } from '../model/index.js';
import { firstDeclaredAt, type DiagnosticSink } from './checker-context.js';
import { checkCondition } from './check-expr.js';
import { compilePattern } from './check-operators.js';
import { checkTemplate } from './check-template.js';
import { resolveFields } from './resolve-types.js';
import { invariantScope, skillInputScope, type SkillSchemas } from './skill-scope.js';
import { didYouMeanName } from './suggestions.js';
import { checkVersion } from './versions.js';
import { checkSkillTimeouts } from './skill-timeouts.js';
import { checkFallbacks } from './skill-fallbacks.js';
import { checkOutputLengths } from './output-lengths.js';
import { checkTemplateOrder, checkTemplateOutput } from './template-output.js';

export type SkillType = 'llm' | 'deterministic';
const SKILL_TYPES: readonly SkillType[] = ['llm', 'deterministic'];

/** What scenarios and fallbacks need to know about a skill. */
export interface SkillInfo extends SkillSchemas {
  readonly id: string;
  readonly idSpan: Span;
  readonly type?: SkillType;
  readonly fallback?: { readonly name: string; readonly span: Span };
  /** The time it may take before its own fallback takes over, and where that was set. */
  readonly timeoutMs: number;
  readonly timeoutSpan?: Span;
  /** Where each `action_metadata` field is declared, by name: what an action type that lacks it is reported at. */
  readonly actionMetadataSpans: ReadonlyMap<string, Span>;
  /** Where each `user_state` field is declared, by name: what a scenario that lacks it is reported at. */
  readonly userStateSpans: ReadonlyMap<string, Span>;
}

/**
 * SEC universal invariants INV-001..003: a payload never names, scores or mutates the
 * selection. Declaring such a field could only ever produce rejected output.
 */
const FORBIDDEN_OUTPUT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['selected_action', 'INV-001'],
  ['recommended_action', 'INV-001'],
  ['action_id', 'INV-001'],
  ['score', 'INV-002'],
  ['ranking', 'INV-002'],
  ['probability', 'INV-002'],
  ['state', 'INV-003'],
  ['update_state', 'INV-003'],
]);

const SINGLE_MEMBERS: Partial<Record<SkillMember['kind'], string>> = {
  SkillVersion: 'version',
  SkillType: 'type',
  SkillDescription: 'description',
  SkillPrompt: 'prompt',
  SkillTimeout: 'timeout',
  SkillFallback: 'fallback',
  SkillActionMetadata: 'action_metadata',
  SkillUserState: 'user_state',
  SkillOutput: 'output',
};

type MemberOf<K extends SkillMember['kind']> = Extract<SkillMember, { kind: K }>;

export interface CheckedSkills {
  readonly skills: readonly CheckedSkill[];
  readonly infos: ReadonlyMap<string, SkillInfo>;
}

export function checkSkills(decls: readonly SkillDecl[], sink: DiagnosticSink): CheckedSkills {
  const infos = new Map<string, SkillInfo>();
  const invariantIds = new Map<string, Span>();
  const prohibitionIds = new Map<string, Span>();
  const drafts: { info: SkillInfo; build: () => CheckedSkill | undefined }[] = [];
  for (const decl of decls) {
    const id = decl.id.name;
    sink.recorder?.declare('skill', id, decl.id.span);
    const earlier = infos.get(id);
    if (earlier !== undefined) sink.report('ADEC2010', decl.id.span, { kind: 'skill', name: id }, { notes: [firstDeclaredAt(earlier.idSpan)] });
    const draft = checkSkill(decl, sink, invariantIds, prohibitionIds);
    if (earlier === undefined && id !== '') infos.set(id, draft.info);
    drafts.push(draft);
  }
  checkFallbacks(drafts.map((d) => d.info), infos, sink);
  return { skills: drafts.flatMap((d) => d.build() ?? []), infos };
}

function checkSkill(
  decl: SkillDecl,
  sink: DiagnosticSink,
  invariantIds: Map<string, Span>,
  prohibitionIds: Map<string, Span>,
): { info: SkillInfo; build: () => CheckedSkill | undefined } {
  const id = decl.id.name;
  const owner = `skill \`${id}\``;
  const member = singleMembers(decl, owner, sink);

  const version = member('SkillVersion')?.version;
  if (version === undefined) sink.report('ADEC4003', decl.id.span, { clause: 'version', owner });
  else checkVersion(version, sink);

  const typeWord = member('SkillType')?.value;
  const type = SKILL_TYPES.find((t) => t === typeWord?.text);
  if (typeWord === undefined) sink.report('ADEC4003', decl.id.span, { clause: 'type', owner });
  else if (type === undefined && typeWord.text !== '') sink.report('ADEC4025', typeWord.span, { text: typeWord.text }, didYouMeanName(typeWord.text, SKILL_TYPES));

  const output = member('SkillOutput');
  if (output === undefined) sink.report('ADEC4003', decl.id.span, { clause: 'output', owner });
  const schemas: SkillSchemas = {
    output: resolveFields(output?.fields ?? [], 'output field', sink),
    actionMetadata: resolveFields(member('SkillActionMetadata')?.fields ?? [], 'action_metadata field', sink),
    userState: resolveFields(member('SkillUserState')?.fields ?? [], 'user_state field', sink),
  };
  checkOutputFieldNames(output?.fields ?? [], id, type ?? typeWord?.text ?? 'the', sink);
  checkOutputLengths(output?.fields ?? [], id, type ?? typeWord?.text ?? 'the', sink);

  if (sink.recorder !== undefined) {
    const roots = { owner: decl.id.span, recorder: sink.recorder };
    sink.recorder.scope('skill-input', decl.id.span, skillInputScope(schemas, roots));
    sink.recorder.scope('skill-invariant', decl.id.span, invariantScope(schemas, { id: '', skill: id }, roots));
  }

  const kind = type ?? 'the';
  const promptMember = member('SkillPrompt');
  const prompt = promptMember && checkTemplate(promptMember.template, skillInputScope(schemas, { owner: decl.id.span, recorder: sink.recorder }), sink);
  const templates = checkTemplates(decl, id, kind, schemas, sink);
  if (type === 'deterministic') checkTemplateOrder(templateDecls(decl), { skill: id, kind }, decl.id.span, sink);
  if (type === 'llm' && prompt === undefined) sink.report('ADEC4023', decl.id.span, { kind, skill: id, problem: 'needs a `prompt`' });
  if (type === 'deterministic' && promptMember !== undefined) {
    sink.report('ADEC4023', promptMember.span, { kind, skill: id, problem: 'has a `prompt`, which only llm skills use: a deterministic skill answers with its templates' });
  }
  if (type === 'deterministic' && templates.length === 0) {
    sink.report('ADEC4023', decl.id.span, { kind, skill: id, problem: 'needs at least one `template`' });
  }
  const fallbackMember = member('SkillFallback');
  if (type === 'llm' && fallbackMember === undefined) {
    sink.report('ADEC4023', decl.id.span, { kind, skill: id, problem: 'needs a deterministic `fallback` (docs/spec/skill-contract.md §6: every skill has a defined fallback)' });
  }
  const timeoutMember = member('SkillTimeout');
  const timeouts = checkSkillTimeouts(timeoutMember, type, sink);
  const invariants = decl.members.flatMap((m) => (m.kind === 'InvariantDecl' ? [m] : [])).map((inv): CheckedInvariant => {
    reportDuplicateId('invariant', inv.id.value, inv.id.span, invariantIds, sink);
    const scope = invariantScope(schemas, { id: inv.id.value, skill: id }, { owner: decl.id.span, recorder: sink.recorder });
    return { id: inv.id.value, description: inv.description.value, check: checkCondition(inv.check, 'invariant', scope, sink), source: inv.source, span: inv.span };
  });
  const prohibitions = decl.members.flatMap((m) => (m.kind === 'ProhibitDecl' ? [m] : [])).flatMap((p): CheckedProhibition[] => {
    reportDuplicateId('prohibition', p.id.value, p.id.span, prohibitionIds, sink);
    const compiled = compilePattern({ sink }, p.pattern);
    return compiled === undefined ? [] : [{ id: p.id.value, pattern: p.pattern.value, ...compiled, reason: p.reason.value, span: p.span }];
  });

  const info: SkillInfo = {
    id,
    idSpan: decl.id.span,
    ...(type !== undefined && { type }),
    ...(fallbackMember !== undefined && { fallback: { name: fallbackMember.skill.name, span: fallbackMember.skill.span } }),
    timeoutMs: timeouts.timeoutMs,
    ...(timeoutMember !== undefined && { timeoutSpan: timeoutMember.timeout.span }),
    actionMetadataSpans: fieldSpans(member('SkillActionMetadata')?.fields ?? []),
    userStateSpans: fieldSpans(member('SkillUserState')?.fields ?? []),
    ...schemas,
  };
  const build = (): CheckedSkill | undefined => {
    if (version === undefined || type === undefined) return undefined;
    const description = member('SkillDescription')?.text.value;
    return {
      id,
      version: version.value,
      type,
      ...(description !== undefined && { description }),
      ...(prompt !== undefined && { prompt }),
      timeoutMs: timeouts.timeoutMs,
      hardLimitMs: timeouts.hardLimitMs,
      ...(info.fallback !== undefined && { fallback: info.fallback.name }),
      actionMetadata: schemas.actionMetadata,
      userState: schemas.userState,
      output: schemas.output,
      invariants,
      prohibitions,
      templates,
      span: decl.span,
    };
  };
  return { info, build };
}

/** Where each field is declared, by name; a repeated name (ADEC2010) keeps its first declaration's span. */
function fieldSpans(fields: readonly FieldDecl[]): ReadonlyMap<string, Span> {
  return new Map(fields.map((f) => [f.name.name, f.name.span] as const).reverse());
}

/** The first occurrence of each once-only member; a repeated one is ADEC4009. */
function singleMembers(decl: SkillDecl, owner: string, sink: DiagnosticSink): <K extends SkillMember['kind']>(kind: K) => MemberOf<K> | undefined {
  const first = new Map<SkillMember['kind'], SkillMember>();
  for (const member of decl.members) {
    const clause = SINGLE_MEMBERS[member.kind];
    if (clause === undefined) continue;
    const earlier = first.get(member.kind);
    if (earlier !== undefined) {
      sink.report('ADEC4009', member.span, { clause, owner }, { notes: [firstDeclaredAt(earlier.span)] });
      continue;
    }
    first.set(member.kind, member);
  }
  return <K extends SkillMember['kind']>(kind: K) => first.get(kind) as MemberOf<K> | undefined;
}

function reportDuplicateId(kind: string, id: string, span: Span, seen: Map<string, Span>, sink: DiagnosticSink): void {
  const first = seen.get(id);
  if (first !== undefined) sink.report('ADEC2010', span, { kind, name: id }, { notes: [firstDeclaredAt(first)] });
  else seen.set(id, span);
}

function checkOutputFieldNames(fields: readonly FieldDecl[], skill: string, kind: string, sink: DiagnosticSink): void {
  for (const field of fields) {
    const name = field.name.name;
    const invariant = FORBIDDEN_OUTPUT_FIELDS.get(name) ?? (name.startsWith('set_') ? 'INV-003' : undefined);
    if (invariant !== undefined) {
      sink.report('ADEC4023', field.name.span, { kind, skill, problem: `declares output field \`${name}\`, which SEC universal invariant ${invariant} forbids` });
    }
  }
}

/**
 * Deterministic templates: each names output fields only and sets every required one, so
 * the fallback's output always passes validation (docs/spec/skill-contract.md §6 "Must be valid").
 */
function checkTemplates(decl: SkillDecl, skill: string, kind: string, schemas: SkillSchemas, sink: DiagnosticSink): CheckedSkillTemplate[] {
  const scope = skillInputScope(schemas, { owner: decl.id.span, recorder: sink.recorder });
  const seen = new Map<string, Span>();
  const templates: CheckedSkillTemplate[] = [];
  for (const template of templateDecls(decl)) {
    sink.recorder?.declare('template', template.name.name, template.name.span);
    reportDuplicateId('template', template.name.name, template.name.span, seen, sink);
    const when = template.when && checkCondition(template.when, 'when', scope, sink);
    const fields = checkTemplateFields(template, skill, schemas.output, scope, sink);
    for (const required of schemas.output.filter((f) => f.type.kind !== 'optional')) {
      if (!template.fields.some((f) => f.name.name === required.name)) {
        sink.report('ADEC4023', template.name.span, { kind, skill, problem: `template \`${template.name.name}\` does not set required output field \`${required.name}\`` });
      }
    }
    checkTemplateOutput(template, fields, schemas.output, { skill, kind }, sink);
    templates.push({ name: template.name.name, ...(when !== undefined && { when }), fields });
  }
  return templates;
}

function templateDecls(decl: SkillDecl): SkillTemplateDecl[] {
  return decl.members.flatMap((m) => (m.kind === 'SkillTemplateDecl' ? [m] : []));
}

function checkTemplateFields(
  template: SkillTemplateDecl,
  skill: string,
  output: readonly RecordField[],
  scope: ReturnType<typeof skillInputScope>,
  sink: DiagnosticSink,
): CheckedSkillTemplate['fields'] {
  const seen = new Map<string, Span>();
  const fields: { name: string; template: ReturnType<typeof checkTemplate> }[] = [];
  for (const field of template.fields) {
    const name = field.name.name;
    const checked = checkTemplate(field.template, scope, sink);
    const outputField = output.find((f) => f.name === name);
    if (outputField !== undefined) sink.recorder?.refer(field.name.span, sink.recorder.fieldTargets(outputField));
    if (outputField === undefined) {
      sink.report('ADEC2002', field.name.span, { type: `${skill}.output`, name }, didYouMeanName(name, output.map((f) => f.name)));
      continue;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      sink.report('ADEC4009', field.name.span, { clause: name, owner: `template \`${template.name.name}\`` }, { notes: [firstDeclaredAt(first)] });
      continue;
    }
    seen.set(name, field.name.span);
    fields.push({ name, template: checked });
  }
  return fields;
}
