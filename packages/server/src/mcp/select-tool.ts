/**
 * The select operation (operations/select.ts) as the MCP tool `select`: the same operation as
 * `POST /v1/select` (admission, idempotency, trace stored before the answer). Like `decide`,
 * its arguments are read by the service's one reader, and its input schema is the operation's.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DecisionResponse, plainSchema } from '@adec/contracts';
import { SELECT } from '../operations/select.js';
import { jsonSchemaOf } from '../pipeline/request-schema.js';

const DESCRIPTION = `Ask adec which of several candidate actions to take for a user now. adec runs your organisation's signed, approved scenario \`scenario\` of \`domain\`@\`world_model_version\`: it derives the user's state from \`signals\` (and from what earlier feedback recorded for \`user_id\`), drops candidates that break a guardrail, ranks the rest, and locks the selection; a skill may then explain it, but can never change it. The full trace is recorded before you get the answer.

Arguments: \`actions\` are the candidates (\`action_id\`, \`type\`, and that type's fields); \`signals\` are facts about the user now; \`conditions\` are platform conditions such as \`offline_mode\`; \`request_id\` (optional) makes a retry safe.

The answer: \`decision.selected_action\` is what to do, \`decision.payload\` what to show (e.g. a rationale), \`execution\` how the explanation was made (a flagged fallback is still a lawful decision), \`audit.replay_token\` how to prove it later. An error result NO_ELIGIBLE_ACTIONS means no candidate is allowed now: do none of them.`;

export const SELECT_TOOL: Tool = {
  name: 'select',
  title: 'Select the next action for a user',
  description: DESCRIPTION,
  inputSchema: jsonSchemaOf(SELECT.schema),
  outputSchema: plainSchema(DecisionResponse),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};
