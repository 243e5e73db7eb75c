/**
 * The deterministic part of the ADE cycle (seed 000 stages 2–4), as a trusted extension that
 * runs inside the module's isolate (runtime/src/sandbox/isolate-prelude.ts): the module's
 * functions are called where they live, with one crossing per selection, and nothing but
 * JSON text crosses. The semantics are documented in the engine README ("Selection semantics").
 *
 * Entry points:
 *   __adec_scenarios()            `{ [scenario]: { version, default_mode, signals,
 *                                 action_types } }`, the static data the host validates
 *                                 requests against
 *   __adec_select(requestJson)    request `{ scenario, signals, defaults_applied, actions,
 *                                 conditions, execution_mode }` (already validated and
 *                                 normalized by the host: select.ts) → the Selection of
 *                                 selection-trace.ts, minus `module`
 *   __adec_skills()               each skill's contract as data (skills/skill-catalog.ts)
 *   __adec_skill_render(id, in)   the first template of a deterministic skill that applies,
 *                                 rendered: `{ ok, template, payload | message }`
 *   __adec_skill_prompt(id, in)   an LLM skill's prompt rendered: `{ ok, prompt | message }`
 *   __adec_skill_invariants(id, in)  each compiled invariant over `in` (with `payload`),
 *                                 its text compared as written and as a reader sees it
 *                                 (skills/text/read-text.ts, the host's own function, installed
 *                                 here as its source; read, compacted and spaced out, as the
 *                                 host reads text): `[{ id, as_written, as_read }]`, each
 *                                 `{ holds, error }`; an invariant of an older compiler has no
 *                                 folded form, and holds as read
 *
 * Every module function is called through `call`, so a throw becomes an entry of `errors` and
 * the cycle goes on: a failed state value throws when read, a guardrail that cannot be
 * evaluated applies (fail closed), a failed objective or tie-break key fails the ranking. The
 * isolate has no clock and no randomness, and arrays are sorted with a total order, so the same
 * request always gives the same text.
 */
import { MODEL_CONDITIONS } from './model-conditions.js';
import { CONFUSABLE_PROTOTYPES } from './skills/text/confusable-prototypes.js';
import { readText } from './skills/text/read-text.js';
import { compacted, spacedOut } from './skills/text/text-forms.js';

export const SELECTION_EXTENSION = `"use strict";
__adec_extend((module, { messageOf, now }) => {
  const scenarios = module._SCENARIOS || {};
  const skills = module._SKILLS || {};
  const invariants = module._INVARIANTS || {};
  const { parse, stringify } = JSON;
  const { freeze, isFrozen, hasOwn, keys, defineProperty, defineProperties, getOwnPropertyDescriptors, getOwnPropertyNames, getOwnPropertyDescriptor } = Object;
  const { isFinite } = Number;
  const { round } = Math;

  const describe = (value) => {
    if (value === undefined || typeof value === "number") return String(value);
    try {
      return stringify(value) ?? typeof value;
    } catch {
      return "a value that cannot be described";
    }
  };

  const deepFreeze = (value) => {
    if (value !== null && typeof value === "object" && !isFrozen(value)) {
      freeze(value);
      for (const key of getOwnPropertyNames(value)) {
        const descriptor = getOwnPropertyDescriptor(value, key);
        if (descriptor && "value" in descriptor) deepFreeze(descriptor.value);
      }
    }
    return value;
  };

  // A frozen object holding the properties of each source; getters are copied, not called.
  const snapshot = (...sources) => {
    const view = {};
    for (const source of sources) defineProperties(view, getOwnPropertyDescriptors(source));
    return freeze(view);
  };

  const record = (errors, stage, source, actionId, message) => {
    errors.push({ stage, source, action_id: actionId, message });
  };

  // One call of a module function: a throw becomes a recorded error, never a crash of the cycle.
  const call = (errors, stage, source, actionId, fn, args) => {
    try {
      return { ok: true, value: fn.apply(undefined, args) };
    } catch (error) {
      record(errors, stage, source, actionId, messageOf(error));
      return { ok: false };
    }
  };

  // Ranking compares scores at 9 decimal places, so floating-point noise (0.1 + 0.2) never
  // breaks a tie the author wrote; -0 becomes 0.
  const atRankingPrecision = (value) => round(value * 1e9) / 1e9 + 0;

  // ── Stage 2: derive state ──────────────────────────────────────────────────────────────

  const failedReader = (name, message) => ({
    get() {
      throw new Error("reads state \\u0060" + name + "\\u0060, whose derivation failed: " + message);
    },
    enumerable: true,
  });

  const deriveState = (scenario, signals, errors) => {
    const state = {};
    const values = {};
    const failed = [];
    for (const entry of scenario.state) {
      const result = call(errors, "derive_state", "state " + entry.name, null, entry.derive, [signals, snapshot(state)]);
      if (result.ok) {
        const value = deepFreeze(result.value === undefined ? null : result.value);
        defineProperty(state, entry.name, { value, enumerable: true });
        values[entry.name] = value;
      } else {
        failed.push(entry.name);
        defineProperty(state, entry.name, failedReader(entry.name, errors[errors.length - 1].message));
      }
    }
    return { state, trace: { state: values, failed_state: failed } };
  };

  // ── Stage 3: guardrails ────────────────────────────────────────────────────────────────

  const GUARDRAILS = "evaluate_guardrails";

  // Whether a fired guardrail rejects one candidate. A function that fails rejects it.
  const rejects = (guardrail, env, action, errors) => {
    const source = "guardrail " + guardrail.id;
    switch (guardrail.effect) {
      case "block": {
        const result = call(errors, GUARDRAILS, source + " predicate", action.action_id, guardrail.predicate, [env, action]);
        return !result.ok || result.value === true;
      }
      case "force":
        return action.type !== guardrail.action_type;
      case "cap": {
        const value = hasOwn(action, guardrail.field) ? action[guardrail.field] : null;
        // A cap constrains the actions that have the field; the others pass it.
        if (typeof value !== "number") return false;
        const limit = call(errors, GUARDRAILS, source + " limit", action.action_id, guardrail.limit, [env, action]);
        if (!limit.ok) return true;
        if (typeof limit.value !== "number" || !isFinite(limit.value)) {
          record(errors, GUARDRAILS, source + " limit", action.action_id, "returned " + describe(limit.value) + ", not a finite number");
          return true;
        }
        return value > limit.value;
      }
      default:
        // A module from a compiler with an effect this engine does not know: fail closed.
        record(errors, GUARDRAILS, source, action.action_id, "has the effect " + describe(guardrail.effect) + ", which this engine does not know");
        return true;
    }
  };

  const evaluateGuardrails = (scenario, env, actions, errors) => {
    const violations = actions.map(() => []);
    const guardrails = scenario.guardrails.map((guardrail) => {
      const when = call(errors, GUARDRAILS, "guardrail " + guardrail.id + " when", null, guardrail.when, [env]);
      const fired = !when.ok || when.value === true;
      const affected = [];
      if (fired) {
        actions.forEach((action, i) => {
          if (!rejects(guardrail, env, action, errors)) return;
          affected.push(action.action_id);
          violations[i].push(guardrail.id);
        });
      }
      return {
        id: guardrail.id,
        description: guardrail.description,
        effect: guardrail.effect,
        fired,
        reason_code: guardrail.id,
        affected_actions: affected,
        action_type: guardrail.effect === "force" ? guardrail.action_type : null,
        field: guardrail.effect === "cap" ? guardrail.field : null,
      };
    });
    const eligible = actions.filter((_, i) => violations[i].length === 0);
    const rejected = [];
    actions.forEach((action, i) => {
      if (violations[i].length > 0) rejected.push({ action_id: action.action_id, violated_guardrails: violations[i] });
    });
    return { eligible, trace: { guardrails, eligible: eligible.map((action) => action.action_id), rejected } };
  };

  // ── Stage 4: score and rank ────────────────────────────────────────────────────────────

  const SCORING = "score_and_rank";

  // Conditions that take away the model an LLM skill needs: they put at risk only the
  // candidates whose skill is an LLM skill, and only when the decision runs skill_enhanced
  // (a deterministic_only decision never calls a model). Every other declared factor applies to
  // every candidate.
  const MODEL_CONDITIONS = new Set(${JSON.stringify(MODEL_CONDITIONS)});

  const needsModel = (scenario, actionType, mode) => {
    if (mode !== "skill_enhanced") return false;
    const type = scenario.action_types.find((candidateType) => candidateType.name === actionType);
    const skill = type && type.skill !== null && hasOwn(skills, type.skill) ? skills[type.skill] : undefined;
    return skill !== undefined && skill.type === "llm";
  };

  const executionRisk = (scenario, conditions) => {
    const risk = scenario.execution_risk;
    const factors = risk ? risk.factors : {};
    const reported = new Set(conditions);
    return {
      weight: risk ? risk.weight : 0,
      factors,
      applied_factors: keys(factors).filter((name) => reported.has(name)),
      ignored_conditions: [...reported].filter((name) => !hasOwn(factors, name)),
    };
  };

  // The factors one candidate is exposed to, and its penalty: weight × their sum.
  const candidateRisk = (scenario, risk, action, mode) => {
    const exposed = needsModel(scenario, action.type, mode);
    const factors = risk.applied_factors.filter((name) => exposed || !MODEL_CONDITIONS.has(name));
    let sum = 0;
    for (const name of factors) sum += risk.factors[name];
    return { factors, penalty: risk.weight * sum };
  };

  const scoreAction = (scenario, env, action, exposure, errors) => {
    let total = 0;
    let failed = false;
    const objectives = scenario.objectives.map((objective) => {
      const source = "objective " + objective.name;
      const result = call(errors, SCORING, source, action.action_id, objective.score, [env, action]);
      const usable = result.ok && typeof result.value === "number" && isFinite(result.value);
      if (result.ok && !usable) record(errors, SCORING, source, action.action_id, "returned " + describe(result.value) + ", not a finite number");
      if (!usable) {
        failed = true;
        return { name: objective.name, weight: objective.weight, raw: null, contribution: null };
      }
      const contribution = objective.weight * result.value;
      total += contribution;
      return { name: objective.name, weight: objective.weight, raw: result.value, contribution };
    });
    return {
      action_id: action.action_id,
      type: action.type,
      objectives,
      objective_total: failed ? null : total,
      execution_risk_factors: exposure.factors,
      execution_risk_penalty: exposure.penalty,
      final_score: failed ? null : atRankingPrecision(total - exposure.penalty),
    };
  };

  // The tie-break key values of one candidate, or null when one of them failed.
  const tieBreakKeys = (scenario, env, action, errors) => {
    let failed = false;
    const values = scenario.tie_breaks.map((tieBreak, index) => {
      const source = "tie_break[" + index + "]";
      const result = call(errors, SCORING, source, action.action_id, tieBreak.key, [env, action]);
      if (!result.ok) {
        failed = true;
        return null;
      }
      const value = result.value === undefined ? null : result.value;
      if (value === null || typeof value === "string" || (typeof value === "number" && isFinite(value))) return value;
      record(errors, SCORING, source, action.action_id, "returned " + describe(value) + ", which cannot be ordered");
      failed = true;
      return null;
    });
    return failed ? null : values;
  };

  // Ascending order of two key values, null last whatever the direction.
  const compareKey = (a, b, direction) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    const ascending = typeof a !== typeof b ? (typeof a === "number" ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0;
    return direction === "desc" ? -ascending : ascending;
  };

  // Which of two candidates ranks first, and what decided it: a total order.
  const compare = (a, b, directions) => {
    if (a.final_score !== b.final_score) return { order: a.final_score > b.final_score ? -1 : 1, basis: { by: "score" } };
    for (let index = 0; index < directions.length; index++) {
      const order = compareKey(a.keys[index], b.keys[index], directions[index]);
      if (order !== 0) return { order, basis: { by: "tie_break", index } };
    }
    const order = a.action_id < b.action_id ? -1 : a.action_id > b.action_id ? 1 : 0;
    return { order, basis: { by: "action_id" } };
  };

  const rank = (scenario, candidates) => {
    const directions = scenario.tie_breaks.map((tieBreak) => tieBreak.direction);
    const sorted = [...candidates].sort((a, b) => compare(a, b, directions).order);
    return sorted.map((candidate, i) => ({
      rank: i + 1,
      action_id: candidate.action_id,
      final_score: candidate.final_score,
      tie_break_keys: candidate.keys,
      ahead_of_next: i + 1 < sorted.length ? compare(candidate, sorted[i + 1], directions).basis : null,
    }));
  };

  const scoreAndRank = (scenario, env, eligible, request, errors) => {
    const risk = executionRisk(scenario, request.conditions);
    const before = errors.length;
    const scores = eligible.map((action) => scoreAction(scenario, env, action, candidateRisk(scenario, risk, action, request.execution_mode), errors));
    const keyValues = eligible.map((action) => tieBreakKeys(scenario, env, action, errors));
    const failed = errors.length > before;
    const ranking = failed ? [] : rank(scenario, scores.map((score, i) => ({ action_id: score.action_id, final_score: score.final_score, keys: keyValues[i] })));
    const first = ranking[0];
    const selectionBasis = first === undefined ? null : first.ahead_of_next ?? { by: "only_eligible" };
    return { failed, trace: { execution_risk: risk, scores, ranking, selection_basis: selectionBasis } };
  };

  // ── The cycle ──────────────────────────────────────────────────────────────────────────

  const statusOf = (eligible, scoring) => (eligible.length === 0 ? "NO_ELIGIBLE_ACTIONS" : scoring.failed ? "SCORING_FAILED" : "SELECTED");

  globalThis.__adec_select = (requestJson) => {
    const request = parse(requestJson);
    const scenario = scenarios[request.scenario];
    const errors = [];
    const signals = deepFreeze(request.signals);
    const actions = deepFreeze(request.actions);
    // Stage timings come from the host's clock, which only this trusted extension holds: they
    // go into the audit trace and never into anything a decision depends on.
    const started = now();
    const derived = deriveState(scenario, signals, errors);
    const env = snapshot(signals, derived.state);
    const derivedAt = now();
    const guardrails = evaluateGuardrails(scenario, env, actions, errors);
    const guardedAt = now();
    const scoring = scoreAndRank(scenario, env, guardrails.eligible, request, errors);
    const status = statusOf(guardrails.eligible, scoring);
    const scoredAt = now();
    return stringify({
      scenario: request.scenario,
      scenario_version: scenario.version,
      status,
      selected_action: status === "SELECTED" ? scoring.trace.ranking[0].action_id : null,
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

  // ── Stages 6 and 7: the skill functions the module compiled ────────────────────────────

  // A skill's input (SEC §1, as the module's templates and invariants read it), frozen before
  // any of its functions sees it. A failing function answers { ok: false }, never a throw: a
  // skill fault is the fallback's business, not a sandbox failure.
  const skillOf = (skillId) => {
    if (!hasOwn(skills, skillId)) throw new Error("the module has no skill \u0060" + skillId + "\u0060");
    return skills[skillId];
  };

  globalThis.__adec_skill_render = (skillId, inputJson) => {
    const skill = skillOf(skillId);
    const input = deepFreeze(parse(inputJson));
    for (const template of skill.templates) {
      try {
        if (template.when !== undefined && template.when(input) !== true) continue;
        return stringify({ ok: true, template: template.name, payload: template.render(input) });
      } catch (error) {
        return stringify({ ok: false, template: template.name, message: messageOf(error) });
      }
    }
    return stringify({ ok: false, template: null, message: "no template of skill \u0060" + skillId + "\u0060 applies" });
  };

  globalThis.__adec_skill_prompt = (skillId, inputJson) => {
    const skill = skillOf(skillId);
    if (skill.prompt === null) return stringify({ ok: false, message: "skill \u0060" + skillId + "\u0060 has no prompt" });
    try {
      return stringify({ ok: true, prompt: skill.prompt(deepFreeze(parse(inputJson))) });
    } catch (error) {
      return stringify({ ok: false, message: messageOf(error) });
    }
  };

  // Text as a reader sees it, in each of the host's forms (skills/text/text-forms.ts), by the
  // host's own functions: host and invariants fold text alike.
  const readText = ${readText.toString()};
  const compacted = ${compacted.toString()};
  const spacedOut = ${spacedOut.toString()};
  const confusablePrototypes = freeze(${JSON.stringify(CONFUSABLE_PROTOTYPES)});
  const forms = [(read) => read, compacted, spacedOut];
  // The folds of one call: each text is read once, however many checks compare it.
  const foldsOfOneCall = () => {
    const read = new Map();
    const readOnce = (text) => {
      let form = read.get(text);
      if (form === undefined) read.set(text, (form = readText(text, confusablePrototypes)));
      return form;
    };
    return forms.map((form) => (text) => form(readOnce(text)).text);
  };

  // Every compiled invariant of the skill over one output: whether it holds as written and as
  // read. A check that throws does not hold.
  const holds = (check, ...args) => {
    try {
      return { holds: check(...args) === true, error: null };
    } catch (error) {
      return { holds: false, error: messageOf(error) };
    }
  };
  globalThis.__adec_skill_invariants = (skillId, inputJson) => {
    skillOf(skillId);
    const input = deepFreeze(parse(inputJson));
    const checks = hasOwn(invariants, skillId) ? invariants[skillId] : [];
    const folds = foldsOfOneCall();
    return stringify(
      checks.map((invariant) => ({
        id: invariant.id,
        as_written: holds(invariant.check, input),
        as_read: typeof invariant.check_folded === "function" ? folds.map((fold) => holds(invariant.check_folded, input, fold)).find((result) => !result.holds) ?? { holds: true, error: null } : { holds: true, error: null },
      })),
    );
  };

  // Each skill's contract as data (no functions): what the host validates and executes by.
  globalThis.__adec_skills = () => {
    const described = {};
    for (const id of keys(skills)) {
      const skill = skills[id];
      described[id] = {
        version: skill.version,
        type: skill.type,
        description: skill.description,
        has_prompt: skill.prompt !== null,
        timeout_ms: skill.timeout_ms,
        hard_limit_ms: skill.hard_limit_ms,
        fallback: skill.fallback,
        action_metadata_fields: skill.action_metadata_fields,
        user_state_fields: skill.user_state_fields,
        output_schema: skill.output_schema,
        prohibitions: skill.prohibitions,
        invariants: (hasOwn(invariants, id) ? invariants[id] : []).map((invariant) => ({ id: invariant.id, description: invariant.description, source: invariant.source })),
        templates: skill.templates.map((template) => template.name),
      };
    }
    return stringify(described);
  };

  globalThis.__adec_scenarios = () => {
    const described = {};
    for (const id of keys(scenarios)) {
      const scenario = scenarios[id];
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
`;
