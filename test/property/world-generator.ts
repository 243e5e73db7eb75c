/**
 * A grammar-based generator of well-formed-ish worlds: the syntax is mostly right (so the
 * checker's later phases run), while names, types, spellings and values are drawn from small
 * pools that mix valid and invalid choices.
 */
import fc from 'fast-check';
import { BUILTIN_NAMES, type WorldSources } from '@adec/compiler';

const ATTRIBUTE_NAMES = ['amount', 'age', 'note', 'plan', 'urgent', 'docs', 'opened_at', 'bonus', 'address', 'ratio'];
const RULE_NAMES = ['r1', 'r2', 'large_amount', 'child_under_26', 'skip_it'];
const SKILL_NAMES = ['coach', 'coach_template', 'missing_skill'];
const TYPES = [
  'int', 'float', 'string', 'bool', 'timestamp', 'duration', '"a" | "b" | "c"', 'list<string>', 'list<int>',
  'int?', 'bool?', 'string?', 'timestamp?', 'string(1..10)', 'int(0..120)', 'float(0..1)', 'int(5..1)',
  '{ x: int, y: string }', '{ x: int }?', 'integer', 'list<"a" | "b">',
];
const OUTCOMES = ['GREEN', 'GREEN-SKIP', 'YELLOW', 'RED', 'green', 'AMBER'];
const SEVERITIES = ['t1', 't2', 't3', 'T1', 't4'];
/** Every built-in (the compiler's registry) and a misspelling. */
const FUNCTIONS = [...BUILTIN_NAMES, 'lenght'];
const BINARY = [
  'and', 'or', 'AND', 'OR', '==', '!=', '<', '<=', '>', '>=', 'EQUALS', 'in', 'CONTAINS', 'NOT CONTAINS',
  'CONTAINS_ANY', 'NOT CONTAINS_ANY', 'MATCHES', 'NOT MATCHES', '??', '+', '-', '*', '/', '%',
];

const pick = <T>(items: readonly T[]) => fc.constantFrom(...items);

const leaf: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.double({ min: 0, max: 10, noNaN: true }).map((n) => n.toFixed(2)),
  pick(['"a"', '"b"', '"child"', '"x y"', "'quoted'", '"(?i)(pain|hurt)"', '"(a+)+$"', '"[unclosed"', '""']),
  pick(['true', 'false', 'null', '30d', '500ms', '18h']),
  pick(ATTRIBUTE_NAMES),
  pick(['request_time', 'payload.text', 'address.x', 'address.z', 'action.minutes', 'user_state.level', 'action_metadata.name']),
);

const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('e'), pick(BINARY), tie('e')).map(([l, op, r]) => `${l} ${op} ${r}`),
    tie('e').map((e) => `not ${e}`),
    tie('e').map((e) => `-${e}`),
    tie('e').map((e) => `(${e})`),
    tie('e').map((e) => `${e} IS NULL`),
    tie('e').map((e) => `${e} IS NOT NULL`),
    fc.tuple(tie('e'), pick(['<', '<=', '>', '==']), tie('e')).map(([e, op, l]) => `${e} LENGTH ${op} ${l}`),
    fc.tuple(pick(FUNCTIONS), fc.array(tie('e'), { maxLength: 3 })).map(([f, args]) => `${f}(${args.join(', ')})`),
    fc.array(tie('e'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    fc.tuple(tie('e'), tie('e'), fc.option(tie('e'))).map(([c, a, b]) =>
      b === null ? `if ${c} then ${a}` : `if ${c} then ${a} else ${b}`,
    ),
  ),
})).e;

const template = fc
  .array(fc.oneof(pick(['Amount ', 'is ', 'for ', '{{braces}} ', '']), expression.map((e) => `{${e}}`)), { maxLength: 4 })
  .map((parts) => `"${parts.join('').replace(/"/g, "'")}"`);

const header = fc
  .record({
    org: fc.option(pick(['"acme"', '"globex"'])),
    domain: fc.option(pick(['"hr.benefits"', '"fitness"'])),
    version: fc.option(pick(['"1.0.0"', '"1.4"', '"v2"', '"2.10.3"'])),
    timeout: fc.option(pick(['5ms', '0ms', '2s'])),
  })
  .map(({ org, domain, version, timeout }) =>
    [
      'world {',
      org === null ? '' : `  org ${org}`,
      domain === null ? '' : `  domain ${domain}`,
      version === null ? '' : `  version ${version}`,
      timeout === null ? '' : `  timeout ${timeout}`,
      '}',
    ].filter((line) => line !== '').join('\n'),
  );

const attribute = fc
  .record({
    source: pick(['supplied', 'supplied', 'supplied', 'computed', 'system']),
    name: pick([...ATTRIBUTE_NAMES, 'request_time', 'request_id', 'authenticated_caller']),
    type: pick(TYPES),
    value: fc.option(expression, { freq: 3 }),
  })
  .map(({ source, name, type, value }) => `  ${source} ${name}: ${type}${value === null ? '' : ` = ${value}`}`);

const context = fc.array(attribute, { maxLength: 6 }).map((attributes) => `context {\n${attributes.join('\n')}\n}`);

const rule = fc
  .record({
    name: pick(RULE_NAMES),
    outcome: fc.option(pick(OUTCOMES), { freq: 8 }),
    severity: fc.option(pick(SEVERITIES), { freq: 8 }),
    appliesWhen: fc.option(expression, { freq: 2 }),
    when: fc.option(expression, { freq: 8 }),
    reason: fc.option(template),
    suppresses: fc.option(fc.array(pick(RULE_NAMES), { minLength: 1, maxLength: 2 })),
    timeout: fc.option(pick(['10ms', '0ms', '1s'])),
    weight: fc.option(pick(['0.5', '2'])),
  })
  .map((r) =>
    [
      `  rule ${r.name} {`,
      r.outcome === null ? '' : `    outcome ${r.outcome}`,
      r.severity === null ? '' : `    severity ${r.severity}`,
      r.appliesWhen === null ? '' : `    applies_when ${r.appliesWhen}`,
      r.when === null ? '' : `    when ${r.when}`,
      r.reason === null ? '' : `    reason ${r.reason}`,
      r.suppresses === null ? '' : `    suppresses ${r.suppresses.join(', ')}`,
      r.timeout === null ? '' : `    timeout ${r.timeout}`,
      r.weight === null ? '' : `    weight ${r.weight}`,
      '  }',
    ].filter((line) => line !== '').join('\n'),
  );

const workFrame = fc
  .record({
    status: pick([...OUTCOMES, 'AMBER']),
    field: pick(['mode', 'next_action', 'allowed_actions', 'required_output', 'next_human_owner', 'next_owner']),
    value: pick(['"review"', '["a", "b"]', '[]']),
  })
  .map(({ status, field, value }) => `  on ${status} { ${field} ${value} }`);

const action = fc
  .record({
    name: pick(['add_dependent', 'review', 'refund']),
    aggregate: fc.option(pick(['winner_takes_all', 'vote_of_n 2', 'vote_of_n', 'weighted_sum_threshold 0.5', 'majority'])),
    context: fc.option(context, { freq: 3 }),
    rules: fc.array(rule, { maxLength: 4 }),
    frames: fc.array(workFrame, { maxLength: 2 }),
  })
  .map((a) =>
    [
      `action ${a.name} {`,
      a.aggregate === null ? '' : `  aggregate ${a.aggregate}`,
      a.context === null ? '' : a.context.replace(/^/gm, '  '),
      ...a.rules,
      ...a.frames,
      '}',
    ].filter((line) => line !== '').join('\n'),
  );

const fields = fc
  .array(fc.tuple(pick(['text', 'name', 'level', 'minutes', 'tone']), pick(TYPES)), { maxLength: 3 })
  .map((fs) => fs.map(([n, t]) => `${n}: ${t}`).join('\n    '));

const skill = fc
  .record({
    name: pick(SKILL_NAMES),
    type: pick(['llm', 'deterministic', 'magic']),
    prompt: fc.option(template),
    timeout: fc.option(pick(['300ms hard_limit 500ms', '500ms hard_limit 300ms', '0ms', '1s'])),
    fallback: fc.option(pick(SKILL_NAMES)),
    metadata: fc.option(fields),
    state: fc.option(fields),
    output: fc.option(fields, { freq: 4 }),
    invariants: fc.array(fc.tuple(pick(['"I-1"', '"I-2"']), expression), { maxLength: 2 }),
    prohibit: fc.option(pick(['"(?i)(pain|hurt)"', '"[bad"', "'(x+)+y'"])),
    templates: fc.array(fc.tuple(pick(['default', 'new_user']), fc.option(expression), template), { maxLength: 2 }),
  })
  .map((s) =>
    [
      `skill ${s.name} {`,
      '  version "1.0.0"',
      `  type ${s.type}`,
      s.prompt === null ? '' : `  prompt ${s.prompt}`,
      s.timeout === null ? '' : `  timeout ${s.timeout}`,
      s.fallback === null ? '' : `  fallback ${s.fallback}`,
      s.metadata === null ? '' : `  action_metadata {\n    ${s.metadata}\n  }`,
      s.state === null ? '' : `  user_state {\n    ${s.state}\n  }`,
      s.output === null ? '' : `  output {\n    ${s.output}\n  }`,
      ...s.invariants.map(([id, check]) => `  invariant ${id} "a check": ${check}`),
      s.prohibit === null ? '' : `  prohibit "P-1" ${s.prohibit} "a reason"`,
      ...s.templates.map(([name, when, text]) => `  template ${name}${when === null ? '' : ` when ${when}`} { text: ${text} }`),
      '}',
    ].filter((line) => line !== '').join('\n'),
  );

const scenario = fc
  .record({
    signals: fields,
    state: fc.option(expression),
    actionTypes: fc.array(fc.tuple(pick(['walk', 'rest_day']), fields, fc.option(pick(SKILL_NAMES))), { maxLength: 2 }),
    guardrail: fc.option(fc.tuple(expression, pick(['force rest_day', 'force walk', 'block action.minutes > 30', 'cap action.minutes 30']))),
    objectives: fc.array(fc.tuple(pick(['effort', 'fun']), pick(['0.5', '1.0', '1.5', '0.25']), expression), { maxLength: 2 }),
    risk: fc.option(pick(['0.1 { offline_mode 0.2 }', '-1 { }'])),
    tieBreak: fc.option(pick(['action_id asc', 'action.minutes desc, action_id asc'])),
    mode: fc.option(pick(['skill_enhanced', 'deterministic_only', 'turbo'])),
  })
  .map((s) =>
    [
      'scenario daily {',
      '  version "1.0.0"',
      `  signals {\n    ${s.signals}\n  }`,
      s.state === null ? '' : `  state {\n    level: float = ${s.state}\n  }`,
      ...s.actionTypes.map(([n, f, sk]) => `  action_type ${n} {\n    ${f}${sk === null ? '' : `\n    skill ${sk}`}\n  }`),
      s.guardrail === null ? '' : `  guardrail "GR-1" "a guardrail" {\n    when ${s.guardrail[0]}\n    ${s.guardrail[1]}\n  }`,
      ...s.objectives.map(([n, w, e]) => `  objective ${n} weight ${w} = ${e}`),
      s.risk === null ? '' : `  execution_risk weight ${s.risk}`,
      s.tieBreak === null ? '' : `  tie_break ${s.tieBreak}`,
      s.mode === null ? '' : `  default_mode ${s.mode}`,
      '}',
    ].filter((line) => line !== '').join('\n'),
  );

const value = pick(['1', '"child"', 'true', 'null', '["a"]', '"2026-01-01T00:00:00Z"', '{ x: 1 }', '2.5']);
const test = fc
  .record({
    target: pick(['action review', 'action add_dependent', 'scenario daily', 'action nothing']),
    context: fc.array(fc.tuple(pick(ATTRIBUTE_NAMES), value), { maxLength: 3 }),
    expect: pick(['GREEN', 'RED by r1', 'YELLOW by large_amount', 'Red', 'selected "w1"', 'NO_ELIGIBLE_ACTIONS']),
  })
  .map((t) =>
    [
      'test "a generated case" {',
      `  ${t.target}`,
      t.target.startsWith('scenario')
        ? '  actions [ { action_id: "w1", type: "walk", minutes: 20 } ]'
        : `  context { ${t.context.map(([k, v]) => `${k}: ${v}`).join(', ')} }`,
      `  expect ${t.expect}`,
      '}',
    ].join('\n'),
  );

const declaration = fc.oneof(
  { arbitrary: context, weight: 3 },
  { arbitrary: action, weight: 4 },
  { arbitrary: skill, weight: 2 },
  { arbitrary: scenario, weight: 2 },
  { arbitrary: test, weight: 2 },
  { arbitrary: header, weight: 1 },
);

/** A world of one to three files; the first usually starts with a header. */
export function generatedWorld(): fc.Arbitrary<WorldSources> {
  const file = fc.array(declaration, { maxLength: 5 });
  return fc
    .tuple(fc.option(header, { freq: 9 }), fc.array(file, { minLength: 1, maxLength: 3 }))
    .map(([head, files]) => ({
      root: 'generated',
      files: files.map((declarations, i) => ({
        path: `generated/part${i}.adec`,
        text: [...(i === 0 && head !== null ? [head] : []), ...declarations].join('\n\n') + '\n',
      })),
    }));
}

/** Integer constants around 2^53, where `n + 1 === n` in floating point. */
const EDGE_INTEGERS = ['9007199254740991', '9007199254740992', '9007199254740993', '18014398509481984', '123456789012345678901234567890'];

/** A small valid world whose conditions compare attributes with integers near 2^53. */
export function edgeNumberWorld(): fc.Arbitrary<WorldSources> {
  return fc
    .record({
      type: pick(['int', 'float', 'int?', 'int(0..)', 'duration']),
      op: pick(['>', '>=', '<', '==', '!=']),
      constant: pick(EDGE_INTEGERS),
      negate: fc.boolean(),
    })
    .map(({ type, op, constant, negate }) => {
      const attribute = type === 'int?' ? '(amount ?? 0)' : type === 'duration' ? 'amount' : 'amount';
      const value = type === 'duration' ? `${constant}ms` : `${negate ? '-' : ''}${constant}`;
      const text = [
        'world { org "acme" domain "edge" version "1.0.0" }',
        `context {\n  supplied amount: ${type}\n}`,
        `action review {\n  rule large {\n    outcome  YELLOW\n    severity t2\n    when     ${attribute} ${op} ${value}\n  }\n}`,
      ].join('\n\n');
      return { root: 'edge', files: [{ path: 'edge/world.adec', text: `${text}\n` }] };
    });
}
