/**
 * The two envelopes of a skill run (docs/spec/skill-contract.md §1–§2): what the engine hands a
 * skill (the only data it ever sees) and what a skill's executor hands back. Both are the
 * reference contract's, field for field; a reply in any other shape fails stage 7.
 */
import { Type } from '@sinclair/typebox';
import { Closed, DecisionId, OpenObject } from './schema-kit.js';
import { ExecutionMode, Payload, SkillOutputMetadata } from './selection-details.js';

/** The SEC input envelope: the selected action's declared fields and the declared state, no raw user data. */
export const SkillInputEnvelope = Closed(
  {
    decision_context: Closed({
      decision_id: DecisionId(),
      selected_action: Type.String({ description: 'The action stage 4 locked: read-only for the skill' }),
      action_metadata: OpenObject({ description: "The selected action's fields the skill declares (`action_metadata { … }`); an absent one is null" }),
      ranked_options: Type.Array(Closed({ action_id: Type.String(), score: Type.Number(), rank: Type.Integer({ minimum: 1 }) }), {
        maxItems: 3,
        description: 'The best ranked options, as read-only context: a skill may not compare them',
      }),
      guardrails_applied: Type.Array(Type.String(), { description: 'The guardrails that fired (ruled a candidate out)' }),
    }),
    user_state: Closed({
      core: OpenObject({ description: 'Engine-wide state dimensions: adec defines none, so it is always empty' }),
      scenario_extensions: OpenObject({ description: 'The scenario state the skill declares (`user_state { … }`), by name; an absent value is null' }),
    }),
    skill_config: Closed({
      skill_id: Type.String(),
      skill_version: Type.String(),
      execution_mode: ExecutionMode,
      timeout_ms: Type.Integer({ minimum: 1, description: 'The time the skill is given: its own timeout within the hard limit' }),
    }),
  },
  { description: 'What a skill receives (docs/spec/skill-contract.md §1)' },
);

/** The output envelope an executor returns: the payload and who made it. */
export const SkillOutputEnvelope = Closed(
  { payload: Payload, metadata: SkillOutputMetadata },
  { description: "What a skill's executor returns (docs/spec/skill-contract.md §2): `metadata` must name the skill and version that were asked for" },
);
