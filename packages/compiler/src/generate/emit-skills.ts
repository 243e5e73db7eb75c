/**
 * `_SKILLS` and `_INVARIANTS`: each skill's execution contract (SEC, docs/spec/skill-contract.md) as data, with its
 * prompt, deterministic templates and invariant checks compiled to functions.
 *
 * An invariant is compiled twice: `check` compares text as written, `check_folded` as the host's
 * `fold` shows it to a reader (ExprScope.foldText); the host requires both to hold.
 *
 * Invariants and templates read docs/spec/skill-contract.md §9 roots from one `input`:
 * `{ payload, action_metadata, user_state, decision_context }` (no payload when rendering);
 * a prompt's `action.x` reads the action metadata.
 */
import type { CheckedSkill, CheckedWorld } from '../model/index.js';
import { objectSchema, schemaJson } from '../manifest/json-schema.js';
import { arrayCode, entry, jsonCode, objectCode, renderCode, type Code, type CodeEntry } from './code-literal.js';
import type { ExprEmitter, ExprScope } from './emit-expr.js';
import type { ModuleTypeNames, SkillTypeNames } from './module-types.js';
import { stringLiteral } from './naming.js';
import { sourceLine } from './source-location.js';

const SKILL_SCOPE: ExprScope = {
  payload: 'input.payload',
  action_metadata: 'input.action_metadata',
  user_state: 'input.user_state',
  decision_context: 'input.decision_context',
  action: 'input.action_metadata',
};

/** An invariant's second form: its text compared as a reader sees it, folded by `fold`. */
const FOLDED_SKILL_SCOPE: ExprScope = { ...SKILL_SCOPE, foldText: 'fold' };

export interface SkillSections {
  readonly skills: Code;
  readonly invariants: Code;
}

export function emitSkillSections(world: CheckedWorld, names: ModuleTypeNames, emitter: ExprEmitter, sources: readonly string[]): SkillSections {
  const skills: CodeEntry[] = [];
  const invariants: CodeEntry[] = [];
  for (const skill of world.skills) {
    const t = names.skill.get(skill.id);
    if (t === undefined) throw new Error(`adec bug: no type names for skill \`${skill.id}\``);
    skills.push({ key: skill.id, value: skillData(skill, t, emitter) });
    invariants.push({
      key: skill.id,
      value: arrayCode(
        skill.invariants.map((inv) =>
          objectCode([
            entry('id', stringLiteral(inv.id), sourceLine(inv.span, sources)),
            entry('description', stringLiteral(inv.description)),
            entry('source', stringLiteral(inv.source)),
            entry('check', `(input: ${t.input}): boolean => ${emitter.emit(inv.check, SKILL_SCOPE)}`),
            entry('check_folded', `(input: ${t.input}, fold: (text: string) => string): boolean => ${emitter.emit(inv.check, FOLDED_SKILL_SCOPE)}`),
          ]),
        ),
      ),
    });
  }
  return { skills: objectCode(skills), invariants: objectCode(invariants) };
}

function skillData(skill: CheckedSkill, t: SkillTypeNames, emitter: ExprEmitter): Code {
  return objectCode([
    entry('version', stringLiteral(skill.version)),
    entry('type', stringLiteral(skill.type)),
    entry('description', skill.description === undefined ? 'null' : stringLiteral(skill.description)),
    entry('prompt', skill.prompt === undefined ? 'null' : `(input: ${t.renderInput}): string => ${emitter.emitTemplate(skill.prompt, SKILL_SCOPE)}`),
    entry('timeout_ms', String(skill.timeoutMs)),
    entry('hard_limit_ms', String(skill.hardLimitMs)),
    entry('fallback', skill.fallback === undefined ? 'null' : stringLiteral(skill.fallback)),
    // The SEC input envelope holds only what the skill declares it reads (no raw user data).
    entry('action_metadata_fields', jsonCode(skill.actionMetadata.map((f) => f.name))),
    entry('user_state_fields', jsonCode(skill.userState.map((f) => f.name))),
    entry('output_schema', jsonCode(schemaJson(objectSchema(skill.output)))),
    entry(
      'prohibitions',
      arrayCode(
        skill.prohibitions.map((p) =>
          objectCode([
            entry('id', stringLiteral(p.id)),
            entry('pattern', stringLiteral(p.pattern)),
            entry('source', stringLiteral(p.source)),
            entry('flags', stringLiteral(p.flags)),
            entry('reason', stringLiteral(p.reason)),
          ]),
        ),
      ),
    ),
    entry(
      'templates',
      arrayCode(
        skill.templates.map((template) =>
          objectCode([
            entry('name', stringLiteral(template.name)),
            template.when === undefined ? undefined : entry('when', `(input: ${t.renderInput}): boolean => ${emitter.emit(template.when, SKILL_SCOPE)}`),
            entry('render', `(input: ${t.renderInput}) => (${renderPayload(template.fields, emitter)})`),
          ]),
        ),
      ),
    ),
  ]);
}

function renderPayload(fields: CheckedSkill['templates'][number]['fields'], emitter: ExprEmitter): string {
  return renderCode(objectCode(fields.map((f) => ({ key: f.name, value: emitter.emitTemplate(f.template, SKILL_SCOPE) }))));
}
