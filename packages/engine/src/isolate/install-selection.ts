/**
 * The selection extension's script (bundled into selection-extension.generated.ts): installs
 * the entry points of stages 2–4 and of the skill functions through the evaluator's
 * `__adec_extend`. selection-extension.ts documents the entry points and the error policy.
 */
import { deriveState } from './derive-state.js';
import { evaluateGuardrails, type Candidate } from './evaluate-guardrails.js';
import { extensionGlobals } from './extension-globals.js';
import { deepFreeze, moduleCaller, snapshot, type CycleError } from './module-calls.js';
import { scoreAndRank, type Ranking } from './score-and-rank.js';
import { skillFunctions } from './skill-functions.js';

const { parse, stringify } = JSON;
const { freeze, keys } = Object;

/** A request as the host sends it (select.ts has validated and normalized it). */
interface SelectionRequest {
  readonly scenario: string;
  readonly signals: object;
  readonly defaults_applied: unknown;
  readonly actions: Candidate[];
  readonly conditions: string[];
  readonly execution_mode: string;
}

// Handed over by the host in the same script, just before this code: taken away at once.
const confusablePrototypes = freeze(extensionGlobals.__adec_confusable_prototypes!);
delete extensionGlobals.__adec_confusable_prototypes;

const statusOf = (eligible: readonly Candidate[], scoring: Ranking): string => (eligible.length === 0 ? 'NO_ELIGIBLE_ACTIONS' : scoring.failed ? 'SCORING_FAILED' : 'SELECTED');

extensionGlobals.__adec_extend!((module, { messageOf, now }) => {
  const scenarios = module._SCENARIOS || {};
  const skills = module._SKILLS || {};
  const call = moduleCaller(messageOf);

  extensionGlobals.__adec_select = (requestJson) => {
    const request = parse(requestJson) as SelectionRequest;
    const scenario = scenarios[request.scenario]!;
    const errors: CycleError[] = [];
    const signals = deepFreeze(request.signals);
    const actions = deepFreeze(request.actions);
    // Stage timings come from the host's clock, which only this trusted extension holds: they
    // go into the audit trace and never into anything a decision depends on.
    const started = now();
    const derived = deriveState(call, scenario, signals, errors);
    const env = snapshot(signals, derived.state);
    const derivedAt = now();
    const guardrails = evaluateGuardrails(call, scenario, env, actions, errors);
    const guardedAt = now();
    const scoring = scoreAndRank(call, skills, scenario, env, guardrails.eligible, request, errors);
    const status = statusOf(guardrails.eligible, scoring);
    const scoredAt = now();
    return stringify({
      scenario: request.scenario,
      scenario_version: scenario.version,
      status,
      selected_action: status === 'SELECTED' ? scoring.trace.ranking[0]!.action_id : null,
      execution_mode: request.execution_mode,
      stages: {
        derive_state: { signals: request.signals, defaults_applied: request.defaults_applied, ...derived.trace },
        evaluate_guardrails: guardrails.trace,
        score_and_rank: scoring.trace,
      },
      errors,
      timings: { derive_state_ms: derivedAt - started, evaluate_guardrails_ms: guardedAt - derivedAt, score_and_rank_ms: scoredAt - guardedAt },
    });
  };

  const skillEntryPoints = skillFunctions(module, messageOf, confusablePrototypes);
  extensionGlobals.__adec_skill_render = skillEntryPoints.render;
  extensionGlobals.__adec_skill_prompt = skillEntryPoints.prompt;
  extensionGlobals.__adec_skill_invariants = skillEntryPoints.invariants;
  extensionGlobals.__adec_skills = skillEntryPoints.describeSkills;

  extensionGlobals.__adec_scenarios = () => {
    const described: Record<string, unknown> = {};
    for (const id of keys(scenarios)) {
      const scenario = scenarios[id]!;
      described[id] = {
        version: scenario.version,
        signals: scenario.signals,
        default_mode: scenario.default_mode,
        action_types: scenario.action_types.map((type) => ({ name: type.name, fields: type.fields, schemas: type.schemas, skill: type.skill })),
      };
    }
    return stringify(described);
  };
});
