/**
 * The type declarations of a generated module: one interface per evaluation environment
 * (action context, scenario signals/state/action, skill input), so every generated function has
 * typed parameters and the module checks under `--strict`. They follow the ABI's own types,
 * which @adec/abi declares (module-abi-types.generated.ts) and whose names they never take.
 */
import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure, TypeAliasDeclarationStructure } from 'ts-morph';
import { formatType, type CheckedAction, type CheckedScenario, type CheckedSkill, type CheckedWorld, type RecordField, type Type } from '../model/index.js';
import { MODULE_ABI_TYPE_NAMES } from './module-abi-types.generated.js';
import { docCommentText, pascalCase, propertyKey, stringLiteral, TypeNamer } from './naming.js';
import { StructureKind } from './ts-morph.js';
import { tsType } from './ts-type.js';

/** Type names of one world's environments, handed out once so every section agrees. */
export interface ModuleTypeNames {
  readonly actionContext: ReadonlyMap<string, string>;
  readonly scenario: ReadonlyMap<string, ScenarioTypeNames>;
  readonly skill: ReadonlyMap<string, SkillTypeNames>;
}

export interface ScenarioTypeNames {
  readonly signals: string;
  readonly state: string;
  readonly env: string;
  readonly action: string;
}

export interface SkillTypeNames {
  readonly payload: string;
  readonly actionMetadata: string;
  readonly userState: string;
  readonly input: string;
  readonly renderInput: string;
}

export function assignTypeNames(world: CheckedWorld): ModuleTypeNames {
  const namer = new TypeNamer(MODULE_ABI_TYPE_NAMES);
  const actionContext = new Map<string, string>();
  for (const action of world.actions) actionContext.set(action.name, namer.name(`${pascalCase(action.name)}Context`));
  const scenario = new Map<string, ScenarioTypeNames>();
  for (const s of world.scenarios) {
    const base = pascalCase(s.id);
    scenario.set(s.id, {
      signals: namer.name(`${base}Signals`),
      state: namer.name(`${base}State`),
      env: namer.name(`${base}Env`),
      action: namer.name(`${base}Action`),
    });
  }
  const skill = new Map<string, SkillTypeNames>();
  for (const s of world.skills) {
    const base = pascalCase(s.id);
    skill.set(s.id, {
      payload: namer.name(`${base}Payload`),
      actionMetadata: namer.name(`${base}ActionMetadata`),
      userState: namer.name(`${base}UserState`),
      input: namer.name(`${base}Input`),
      renderInput: namer.name(`${base}RenderInput`),
    });
  }
  return { actionContext, scenario, skill };
}

export function actionContextInterface(action: CheckedAction, name: string): InterfaceDeclarationStructure {
  return interfaceOf(
    name,
    `Context of action \`${action.name}\` as its predicates see it: supplied (defaults applied), system and computed attributes; timestamps and durations in ms.`,
    action.context.map((a) => {
      const hasDefault = a.defaultValue !== undefined;
      const doc = `${a.source} ${formatType(a.type)}${hasDefault ? ` = ${JSON.stringify(a.defaultValue)}` : ''}`;
      return property(a.name, a.type, doc);
    }),
  );
}

export function scenarioTypes(scenario: CheckedScenario, names: ScenarioTypeNames): (InterfaceDeclarationStructure | TypeAliasDeclarationStructure)[] {
  return [
    interfaceOf(
      names.signals,
      `Signals of scenario \`${scenario.id}\`, defaults applied.`,
      scenario.signals.map((s) => property(s.name, s.type, formatType(s.type))),
    ),
    interfaceOf(
      names.state,
      `Derived state of scenario \`${scenario.id}\`.`,
      scenario.state.map((s) => property(s.name, s.type, formatType(s.type))),
    ),
    typeAlias(names.env, `${names.signals} & ${names.state}`, 'What guardrails, objectives and tie-breaks read: `{ ...signals, ...state }`.'),
    scenarioActionInterface(scenario, names.action),
  ];
}

/**
 * A candidate action: its id, its action type, and the fields of its type. A field declared by
 * every action type is required; one declared by only some is optional (absent on the others).
 */
function scenarioActionInterface(scenario: CheckedScenario, name: string): InterfaceDeclarationStructure {
  const typeNames = scenario.actionTypes.map((t) => stringLiteral(t.name));
  const fieldOrder: string[] = [];
  const fieldTypes = new Map<string, Type[]>();
  for (const actionType of scenario.actionTypes) {
    for (const field of actionType.fields) {
      const types = fieldTypes.get(field.name);
      if (types === undefined) {
        fieldOrder.push(field.name);
        fieldTypes.set(field.name, [field.type]);
      } else {
        types.push(field.type);
      }
    }
  }
  const properties: OptionalKind<PropertySignatureStructure>[] = [
    { name: 'action_id', type: 'string', isReadonly: true },
    { name: 'type', type: typeNames.length > 0 ? typeNames.join(' | ') : 'string', isReadonly: true },
  ];
  for (const field of fieldOrder) {
    const types = fieldTypes.get(field) ?? [];
    const tsTypes = [...new Set(types.map((t) => tsType(t.kind === 'optional' ? t.inner : t)))];
    const everywhere = types.length === scenario.actionTypes.length && types.every((t) => t.kind !== 'optional');
    properties.push({
      name: propertyKey(field),
      type: everywhere ? tsTypes.join(' | ') : `${tsTypes.join(' | ')} | null`,
      isReadonly: true,
      hasQuestionToken: !everywhere,
    });
  }
  return interfaceOf(name, `A candidate action of scenario \`${scenario.id}\`.`, properties);
}

export function skillTypes(skill: CheckedSkill, names: SkillTypeNames): (InterfaceDeclarationStructure | TypeAliasDeclarationStructure)[] {
  const fields = (list: readonly RecordField[]) => list.map((f) => property(f.name, f.type, formatType(f.type)));
  return [
    interfaceOf(names.payload, `Output payload of skill \`${skill.id}\`.`, fields(skill.output)),
    interfaceOf(names.actionMetadata, `Action metadata skill \`${skill.id}\` receives.`, fields(skill.actionMetadata)),
    interfaceOf(names.userState, `User state skill \`${skill.id}\` receives.`, fields(skill.userState)),
    interfaceOf(names.input, `What invariants of skill \`${skill.id}\` check (docs/spec/skill-contract.md section 9 roots).`, [
      { name: 'payload', type: names.payload, isReadonly: true },
      { name: 'action_metadata', type: names.actionMetadata, isReadonly: true },
      { name: 'user_state', type: names.userState, isReadonly: true },
      {
        name: 'decision_context',
        // The SEC input envelope's decision context, as the checker types it (check/skill-scope.ts).
        type: `{ readonly decision_id: string; readonly selected_action: string; readonly action_metadata: ${names.actionMetadata}; }`,
        isReadonly: true,
      },
    ]),
    typeAlias(names.renderInput, `Omit<${names.input}, "payload">`, 'What prompts and templates render from (no payload exists yet).'),
  ];
}

function property(name: string, type: Type, doc: string): OptionalKind<PropertySignatureStructure> {
  return {
    name: propertyKey(name),
    type: tsType(type),
    isReadonly: true,
    hasQuestionToken: type.kind === 'optional',
    docs: [docCommentText(doc)],
  };
}

function interfaceOf(name: string, doc: string, properties: OptionalKind<PropertySignatureStructure>[]): InterfaceDeclarationStructure {
  return { kind: StructureKind.Interface, name, isExported: true, docs: [docCommentText(doc)], properties };
}

function typeAlias(name: string, type: string, doc: string): TypeAliasDeclarationStructure {
  return { kind: StructureKind.TypeAlias, name, isExported: true, type, docs: [doc] };
}
