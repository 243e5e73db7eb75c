import { describe, expect, it } from 'vitest';
import { HEADER, checkOk } from './helpers.js';

describe('invariant source', () => {
  it('records the check exactly as the contract wrote it', () => {
    const check = `(payload.rationale   NOT MATCHES '\\d+%')  and  (payload.rationale LENGTH < 200)`;
    const world = checkOk(`${HEADER}
skill s {
  version "1.0.0"
  type    deterministic
  output  { rationale: string(..200) }
  invariant "S-001" "no percentages": ${check}
  template default { rationale: "A plain rationale" }
}
`);
    expect(world.skills[0]?.invariants[0]).toMatchObject({ id: 'S-001', description: 'no percentages', source: check });
  });
});
