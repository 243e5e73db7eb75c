/**
 * `_SCENARIOS`: selection scenarios (docs/spec/selection.md) as data plus the functions the ADE cycle calls.
 *
 * Evaluation environments:
 * - state derivation `derive(signals, state)`: `signals` with defaults applied, `state` holding
 *   the entries derived so far (derive in the listed order);
 * - everything else reads `env = { ...signals, ...state }` and, per candidate, `action`
 *   (`{ action_id, type, ...fields }`, as tests write it): guardrail `when(env)`, block `predicate(env, action)`,
 *   cap `limit(env, action)`, objective `score(env, action)`, tie-break `key(env, action)`.
 */
import { schemaJson, typeSchema } from '../manifest/json-schema.js';
import { formatType, type CheckedGuardrail, type CheckedScenario, type CheckedWorld } from '../model/index.js';
import { arrayCode, entry, jsonCode, objectCode, type Code } from './code-literal.js';
import type { ExprEmitter, ExprScope } from './emit-expr.js';
import type { ModuleTypeNames, ScenarioTypeNames } from './module-types.js';
import { stringLiteral } from './naming.js';
import { tsType } from './ts-type.js';

const DERIVE_SCOPE: ExprScope = { signal: 'signals', state: 'state' };
const ENV_SCOPE: ExprScope = { signal: 'env', state: 'env', action: 'action' };

export function emitScenarios(world: CheckedWorld, names: ModuleTypeNames, emitter: ExprEmitter): Code {
  return objectCode(
    world.scenarios.map((scenario) => {
      const typeNames = names.scenario.get(scenario.id);
      if (typeNames === undefined) throw new Error(`adec bug: no type names for scenario \`${scenario.id}\``);
      return { key: scenario.id, value: scenarioData(scenario, typeNames, emitter) };
    }),
  );
}

function scenarioData(scenario: CheckedScenario, t: ScenarioTypeNames, emitter: ExprEmitter): Code {
  const envOnly = `(env: ${t.env})`;
  const envAction = `(env: ${t.env}, action: ${t.action})`;
  return objectCode([
    entry('version', stringLiteral(scenario.version)),
    entry('default_mode', stringLiteral(scenario.defaultMode)),
    entry(
      'signals',
      arrayCode(
        scenario.signals.map((s) =>
          objectCode([
            entry('name', stringLiteral(s.name)),
            entry('type', stringLiteral(formatType(s.type))),
            // The wire form a selection request must give, so a host validates and converts
            // signals without reading type text back.
            entry('schema', jsonCode(schemaJson(typeSchema(s.type)))),
            s.defaultValue === undefined ? undefined : entry('default', jsonCode(s.defaultValue)),
          ]),
        ),
      ),
    ),
    entry(
      'state',
      arrayCode(
        scenario.state.map((s) =>
          objectCode([
            entry('name', stringLiteral(s.name)),
            entry('type', stringLiteral(formatType(s.type))),
            entry('derive', `(signals: ${t.signals}, state: ${t.state}): ${tsType(s.type)} => ${emitter.emit(s.derivation, DERIVE_SCOPE)}`),
          ]),
        ),
      ),
    ),
    entry(
      'action_types',
      arrayCode(
        scenario.actionTypes.map((a) =>
          objectCode([
            entry('name', stringLiteral(a.name)),
            entry('fields', jsonCode(a.fields.map((f) => f.name))),
            // Each field's wire form, as for signals: a host validates and converts fields too.
            entry('schemas', jsonCode(Object.fromEntries(a.fields.map((f) => [f.name, schemaJson(typeSchema(f.type))])))),
            entry('skill', a.skill === undefined ? 'null' : stringLiteral(a.skill)),
          ]),
        ),
      ),
    ),
    entry('guardrails', arrayCode(scenario.guardrails.map((g) => guardrail(g, envOnly, envAction, emitter)))),
    entry(
      'objectives',
      arrayCode(
        scenario.objectives.map((o) =>
          objectCode([
            entry('name', stringLiteral(o.name)),
            entry('weight', String(o.weight)),
            entry('score', `${envAction}: number => ${emitter.emit(o.score, ENV_SCOPE)}`),
          ]),
        ),
      ),
    ),
    entry(
      'execution_risk',
      scenario.executionRisk === undefined
        ? 'null'
        : objectCode([
            entry('weight', String(scenario.executionRisk.weight)),
            entry('factors', objectCode(scenario.executionRisk.factors.map((f) => ({ key: f.name, value: String(f.value) })))),
          ]),
    ),
    entry(
      'tie_breaks',
      arrayCode(
        scenario.tieBreaks.map((b) =>
          objectCode([entry('direction', stringLiteral(b.direction)), entry('key', `${envAction} => ${emitter.emitValue(b.key, ENV_SCOPE)}`)]),
        ),
      ),
    ),
  ]);
}

function guardrail(g: CheckedGuardrail, envOnly: string, envAction: string, emitter: ExprEmitter): Code {
  const common = [
    entry('id', stringLiteral(g.id)),
    entry('description', stringLiteral(g.description)),
    entry('effect', stringLiteral(g.effect.kind)),
    entry('when', `${envOnly}: boolean => ${emitter.emit(g.when, ENV_SCOPE)}`),
  ];
  switch (g.effect.kind) {
    case 'block':
      return objectCode([...common, entry('predicate', `${envAction}: boolean => ${emitter.emit(g.effect.predicate, ENV_SCOPE)}`)]);
    case 'force':
      return objectCode([...common, entry('action_type', stringLiteral(g.effect.actionType))]);
    case 'cap':
      return objectCode([
        ...common,
        entry('field', stringLiteral(g.effect.field)),
        entry('limit', `${envAction} => ${emitter.emitValue(g.effect.limit, ENV_SCOPE)}`),
      ]);
  }
}
