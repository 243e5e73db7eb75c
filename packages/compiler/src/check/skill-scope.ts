/**
 * The names a skill's expressions see: the SEC input envelope (`action_metadata`,
 * `user_state`, `decision_context`) and, in invariants only, the skill's output `payload`.
 */
import type { Span } from '@adec/diagnostics';
import type { RecordField, Type } from '../model/index.js';
import type { BindingRecorder, BoundTarget } from './name-bindings.js';
import { createScope, type ExprScope, type NameBinding } from './scope.js';
import { STRING } from './type-relations.js';

export interface SkillSchemas {
  readonly output: readonly RecordField[];
  readonly actionMetadata: readonly RecordField[];
  readonly userState: readonly RecordField[];
}

/** The skill whose envelope it is (its id's span), and the recorder that hears what the names mean. */
export interface SkillRoots {
  readonly owner: Span;
  readonly recorder?: BindingRecorder | undefined;
}

const root = (name: string, { owner }: SkillRoots): BoundTarget => ({ kind: 'root', name, owner });

/** docs/spec/skill-contract.md §1: the decision context a skill receives; the selection is read-only. */
function decisionContextType(schemas: SkillSchemas, roots: SkillRoots): Type {
  const fields: RecordField[] = [
    { name: 'decision_id', type: STRING },
    { name: 'selected_action', type: STRING },
    { name: 'action_metadata', type: { kind: 'record', fields: schemas.actionMetadata } },
  ];
  if (roots.recorder !== undefined) {
    for (const field of fields) {
      const target: BoundTarget = field.name === 'action_metadata' ? root(field.name, roots) : { kind: 'root-field', root: 'decision_context', name: field.name, owner: roots.owner };
      roots.recorder.fieldOrigin(field, target);
    }
  }
  return { kind: 'record', fields };
}

function inputBindings(schemas: SkillSchemas, roots: SkillRoots): NameBinding[] {
  return [
    { root: 'action_metadata', name: 'action_metadata', type: { kind: 'record', fields: schemas.actionMetadata }, target: root('action_metadata', roots) },
    { root: 'user_state', name: 'user_state', type: { kind: 'record', fields: schemas.userState }, target: root('user_state', roots) },
    { root: 'decision_context', name: 'decision_context', type: decisionContextType(schemas, roots), target: root('decision_context', roots) },
  ];
}

/** Prompts and templates produce the payload, so they read only the input. */
export function skillInputScope(schemas: SkillSchemas, roots: SkillRoots): ExprScope {
  return createScope(inputBindings(schemas, roots));
}

/** Invariants check the output against the input. */
export function invariantScope(schemas: SkillSchemas, invariant: { id: string; skill: string }, roots: SkillRoots): ExprScope {
  const payload: NameBinding = { root: 'payload', name: 'payload', type: { kind: 'record', fields: schemas.output }, target: root('payload', roots) };
  return createScope([payload, ...inputBindings(schemas, roots)], { invariant });
}
