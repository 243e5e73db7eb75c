/**
 * The type of `action` in a scenario: the candidate being filtered and scored. Its fields
 * are the union over the scenario's action types: a field every type has (with one type)
 * has that type, a field only some types have is optional, plus `action_id` and `type`.
 */
import type { RecordField, Type } from '../model/index.js';
import type { Span } from '@adec/diagnostics';
import { STRING, joinTypes, optionalOf } from './type-relations.js';

export interface ActionTypeInfo {
  readonly name: string;
  readonly nameSpan: Span;
  readonly fields: readonly RecordField[];
}

/** Fields every candidate has, whatever its action type. */
export const CANDIDATE_BUILTIN_FIELDS = ['action_id', 'type'] as const;

export function candidateActionType(actionTypes: readonly ActionTypeInfo[]): Type {
  const names = [...new Set(actionTypes.flatMap((t) => t.fields.map((f) => f.name)))].filter(
    (name) => !(CANDIDATE_BUILTIN_FIELDS as readonly string[]).includes(name),
  );
  const fields: RecordField[] = [
    { name: 'action_id', type: STRING },
    { name: 'type', type: { kind: 'enum', members: actionTypes.map((t) => t.name) } },
  ];
  for (const name of names) {
    const type = unionFieldType(name, actionTypes);
    // Fields whose types cannot be joined (e.g. int in one type, string in another) are left
    // out: reading them is reported as an unknown field rather than guessed at.
    if (type === undefined) continue;
    const absentFrom = actionTypes.filter((t) => !t.fields.some((f) => f.name === name)).map((t) => t.name);
    fields.push({ name, type, ...(absentFrom.length > 0 && { absentFrom }) });
  }
  return { kind: 'record', fields };
}

function unionFieldType(name: string, actionTypes: readonly ActionTypeInfo[]): Type | undefined {
  let joined: Type | undefined;
  let inEveryType = true;
  for (const actionType of actionTypes) {
    const field = actionType.fields.find((f) => f.name === name);
    if (field === undefined) {
      inEveryType = false;
      continue;
    }
    joined = joined === undefined ? field.type : joinTypes(joined, field.type);
    if (joined === undefined) return undefined;
  }
  if (joined === undefined) return undefined;
  return inEveryType ? joined : optionalOf(joined);
}
