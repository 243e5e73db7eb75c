/**
 * Invariants may read the SEC decision context (`decision_context.selected_action`, …): the
 * generated module types it as the checker does, so such a world builds and its invariant runs.
 */
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildWorld } from '../../src/index.js';
import { BUNDLE_GLOBAL_NAME } from '../../src/bundle/index.js';

const WORLD = `world { org "acme" domain "coaching" version "1.0.0" }
skill coach_template {
  version "1.0.0"
  type    deterministic
  output  { rationale: string(..200) }
  invariant "C-001" "does not name the selection": payload.rationale NOT CONTAINS decision_context.selected_action
  template default { rationale: "A plain rationale" }
}
`;

describe('an invariant over decision_context', () => {
  it('builds and checks the output against the selected action', async () => {
    const result = await buildWorld({ root: 'w', files: [{ path: 'w/main.adec', text: WORLD }] });
    expect(result.diagnostics).toEqual([]);
    const module = runInContext(`${result.artifacts!.bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
      _INVARIANTS: Record<string, { id: string; check: (input: unknown) => boolean }[]>;
    };
    const [invariant] = module._INVARIANTS['coach_template']!;
    const input = (rationale: string) => ({
      payload: { rationale },
      action_metadata: {},
      user_state: {},
      decision_context: { decision_id: 'd-1', selected_action: 'yoga_flow', action_metadata: {} },
    });
    expect(invariant?.id).toBe('C-001');
    expect(invariant?.check(input('A calm session to recover'))).toBe(true);
    expect(invariant?.check(input('We picked yoga_flow for you'))).toBe(false);
  });
});
