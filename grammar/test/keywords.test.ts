import { describe, expect, it } from 'vitest';
import { parse, render, whenExpr } from './helpers.js';

describe('keywords that are also names', () => {
  it('accepts keyword-like record fields after a dot', () => {
    expect(render(whenExpr('payload.type == "x" and action.context.state > payload.version'))).toBe(
      '((payload.type == "x") and (action.context.state > payload.version))',
    );
    expect(render(whenExpr('payload.in and payload.not and payload.if'))).toBe('((payload.in and payload.not) and payload.if)');
  });

  it('accepts context attributes named like keywords, and uses them bare', () => {
    const text = `context {
  supplied state:   int
  supplied type:    string
  supplied output:  bool
  supplied weight:  float
  supplied timeout: duration
  computed mode:    bool = state > 0 and output and weight < 2.5 and timeout > 5m and type == "x"
}`;
    const { file, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    const context = file.declarations[0];
    if (context?.kind !== 'ContextBlock') throw new Error('no context');
    expect(context.attributes.map((a) => a.name.name)).toEqual(['state', 'type', 'output', 'weight', 'timeout', 'mode']);
    expect(render(context.attributes[5]!.value!)).toBe(
      '(((((state > 0) and output) and (weight < 2.5)) and (timeout > 300000ms)) and (type == "x"))',
    );
  });

  it('accepts keyword-named work_frame fields, record fields and action-type fields', () => {
    const text = `
action a { on YELLOW { mode "review"  name "x"  version "1"  context "c" } }
skill s { output { type: string, name: string, version: string, state: { org: string, domain: string } } }
scenario sc {
  action_type t { skill: int, name: string, signals: int, skill rationale }
  objective weight weight 0.5 = weight
}
test "t" { context { type: "a", state: 1, action: "x", if: true } }`;
    const { file, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(file.declarations[0]).toMatchObject({
      workFrames: [{ fields: [{ name: { name: 'mode' } }, { name: { name: 'name' } }, { name: { name: 'version' } }, { name: { name: 'context' } }] }],
    });
    expect(file.declarations[2]).toMatchObject({
      members: [
        {
          kind: 'ActionTypeDecl',
          fields: [{ name: { name: 'skill' } }, { name: { name: 'name' } }, { name: { name: 'signals' } }],
          skill: { name: 'rationale' },
        },
        { kind: 'ObjectiveDecl', name: { name: 'weight' }, weight: { value: 0.5 }, score: { kind: 'NameExpr', name: 'weight' } },
      ],
    });
    expect(file.declarations[3]).toMatchObject({
      members: [{ value: { entries: [{ key: { name: 'type' } }, { key: { name: 'state' } }, { key: { name: 'action' } }, { key: { name: 'if' } }] } }],
    });
  });

  it('accepts world settings as plain names', () => {
    const { file } = parse('world { org "a" domain "b" version "1.0.0" name "w" timeout 5ms orgg "typo" }');
    expect(file.declarations[0]).toMatchObject({
      settings: [
        { key: { name: 'org' } },
        { key: { name: 'domain' } },
        { key: { name: 'version' } },
        { key: { name: 'name' } },
        { key: { name: 'timeout' }, value: { kind: 'DurationLiteral', milliseconds: 5 } },
        { key: { name: 'orgg' } },
      ],
    });
  });
});
