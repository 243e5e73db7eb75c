/** The replay token (docs/spec/selection.md 3.9.3): base64url JSON, opaque to clients, readable by the service. */
import { Type } from '@sinclair/typebox';
import { Closed, DecisionId, Sha256, Timestamp } from './schema-kit.js';

export const ReplayToken = Closed(
  {
    decision_id: DecisionId(),
    scenario_hash: Type.String(),
    inputs_hash: Sha256('The UserState’s inputs_hash'),
    created_at: Timestamp('The decision timestamp'),
  },
  { description: 'docs/spec/selection.md 3.9.3' },
);
