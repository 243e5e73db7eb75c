/**
 * The names a skill's expressions see: the SEC input envelope (`action_metadata`,
 * `user_state`, `decision_context`) and, in invariants only, the skill's output `payload`.
 */
import type { RecordField, Type } from '../model/index.js';
import { createScope, type ExprScope, type NameBinding } from './scope.js';
import { STRING } from './type-relations.js';

export interface SkillSchemas {
  readonly output: readonly RecordField[];
  readonly actionMetadata: readonly RecordField[];
  readonly userState: readonly RecordField[];
}

/** docs/spec/skill-contract.md §1: the decision context a skill receives; the selection is read-only. */
function decisionContextType(schemas: SkillSchemas): Type {
  return {
    kind: 'record',
    fields: [
      { name: 'decision_id', type: STRING },
      { name: 'selected_action', type: STRING },
      { name: 'action_metadata', type: { kind: 'record', fields: schemas.actionMetadata } },
    ],
  };
}

function inputBindings(schemas: SkillSchemas): NameBinding[] {
  return [
    { root: 'action_metadata', name: 'action_metadata', type: { kind: 'record', fields: schemas.actionMetadata } },
    { root: 'user_state', name: 'user_state', type: { kind: 'record', fields: schemas.userState } },
    { root: 'decision_context', name: 'decision_context', type: decisionContextType(schemas) },
  ];
}

/** Prompts and templates produce the payload, so they read only the input. */
export function skillInputScope(schemas: SkillSchemas): ExprScope {
  return createScope(inputBindings(schemas));
}

/** Invariants check the output against the input. */
export function invariantScope(schemas: SkillSchemas, invariant: { id: string; skill: string }): ExprScope {
  const payload: NameBinding = { root: 'payload', name: 'payload', type: { kind: 'record', fields: schemas.output } };
  return createScope([payload, ...inputBindings(schemas)], { invariant });
}
