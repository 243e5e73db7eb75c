/**
 * checkModuleMetadataJson holds the tables a module hands the host at load to their shapes and
 * to each other; whatever a module returns, the answer is a value, never a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkModuleMetadataJson, validate } from '@adec/abi';

const metadata = () => ({
  abi_version: 2,
  world: { org: 'acme', domain: 'payments.refunds', world: 'refunds', version: '1.0.0' },
  actions: {
    refund: {
      rules: ['over_limit', 'frozen'],
      aggregation: { mode: 'winner_takes_all' },
      work_frames: { RED: { next_human_owner: 'risk' } },
      supplied: ['amount'],
      durations: { window: { fields: { span: true, history: { items: true } } } },
      predicate_timeout_ms: 5,
      rule_timeout_ms: { frozen: 20 },
    },
  },
  outcome: { over_limit: 'RED', frozen: 'YELLOW' },
  severity: { over_limit: 't1', frozen: 't2' },
  suppresses: {},
  reads: { over_limit: ['amount'] },
  predicates: ['over_limit', 'frozen'],
});

describe('the tables a module exports', () => {
  it('are read when they agree with the ABI and with each other', () => {
    expect(validate(checkModuleMetadataJson, metadata())).toEqual({ ok: true, value: metadata() });
  });

  it('are refused when an action lists a rule the module does not define', () => {
    const tables = { ...metadata(), predicates: ['over_limit'], severity: { over_limit: 't1' } };
    expect(validate(checkModuleMetadataJson, tables)).toEqual({
      ok: false,
      problems: [{ code: 'VALUE_NOT_ALLOWED', path: 'actions.refund.rules[1]', message: '`actions.refund.rules[1]` names rule `frozen`, which has no predicate, no severity' }],
    });
  });

  it('are refused with the path of a time limit out of range and of a template for no status', () => {
    const { refund } = metadata().actions;
    const tables = { ...metadata(), actions: { refund: { ...refund, rule_timeout_ms: { frozen: 5_000 }, work_frames: { ORANGE: {} } } } };
    const result = validate(checkModuleMetadataJson, tables);
    expect(result.ok ? [] : result.problems.map((p) => [p.code, p.path])).toEqual([
      ['VALUE_NOT_ALLOWED', 'actions.refund.work_frames.ORANGE'],
      ['VALUE_NOT_ALLOWED', 'actions.refund.rule_timeout_ms.frozen'],
    ]);
  });

  it('are refused, never thrown, whatever JSON a module returns', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validate(checkModuleMetadataJson, value).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
