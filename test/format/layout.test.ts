/**
 * The canonical layout of `adec fmt`, case by case (the rules are listed in
 * packages/compiler/src/format/format-source.ts). Each formatted text is also checked to be a
 * fixed point: formatting it again changes nothing.
 */
import { formatSource, MAX_LINE_WIDTH } from '@adec/compiler';
import { parseSource } from '@adec/grammar';
import { describe, expect, it } from 'vitest';
import { canonicalAst } from './format-contract.js';

function fmt(text: string, path = 'w/world.adec'): string {
  const result = formatSource(path, text);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n'));
  const again = formatSource(path, result.text);
  expect(again.ok && again.text, 'formatting twice changes nothing').toBe(result.text);
  expect(canonicalAst(parseSource(path, result.text).file)).toBe(canonicalAst(parseSource(path, text).file));
  return result.text;
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe('adec fmt: layout', () => {
  it('one item per line, two-space indentation, aligned clause values, spaces around operators', () => {
    const text = lines(
      'world { org "acme" domain "hr" version "1.0.0" timeout 5ms }',
      'context { supplied age : int(0..130)  supplied tier:"a"|"b" = "a"',
      'system request_time:timestamp computed adult : bool=age>=18 }',
      'action review { aggregate winner_takes_all',
      '  rule adult_only { outcome RED severity t1 applies_when tier=="a" when not adult reason "Aged {age}" }',
      '  on RED { next_human_owner "review" forbidden_actions ["review"] } }',
      'test "an adult passes" { action review context { age: 30 } expect GREEN }',
    );
    expect(fmt(text)).toBe(
      lines(
        'world {',
        '  org     "acme"',
        '  domain  "hr"',
        '  version "1.0.0"',
        '  timeout 5ms',
        '}',
        '',
        'context {',
        '  supplied age:          int(0..130)',
        '  supplied tier:         "a" | "b" = "a"',
        '  system   request_time: timestamp',
        '  computed adult:        bool = age >= 18',
        '}',
        '',
        'action review {',
        '  aggregate winner_takes_all',
        '  rule adult_only {',
        '    outcome      RED',
        '    severity     t1',
        '    applies_when tier == "a"',
        '    when         not adult',
        '    reason       "Aged {age}"',
        '  }',
        '  on RED {',
        '    next_human_owner  "review"',
        '    forbidden_actions ["review"]',
        '  }',
        '}',
        '',
        'test "an adult passes" {',
        '  action  review',
        '  context { age: 30 }',
        '  expect  GREEN',
        '}',
      ),
    );
  });

  it('skills and scenarios: field types, simple clauses and objective weights align; inline records stay inline', () => {
    const text = lines(
      'skill s { version "1.0.0" type llm prompt "p" timeout 300ms hard_limit 500ms fallback t',
      '  output { rationale: string(20..200), tone: { t: "a" | "b", h: bool }? }',
      '  template default when user_state.x > 0.7 { rationale: "r" } }',
      'scenario sc { version "1.0.0" signals { x: int = 0, yy: int = 1 } state { e: float(0..1) = clamp(x / 5, 0, 1) }',
      '  action_type w { n: string skill s }',
      '  action_type pause { }',
      '  guardrail "G" "g" { when x < 1 force w }',
      '  objective completion weight 0.6 = if action.n == "h" then 1 - e else 0.8',
      '  objective momentum weight 0.4 = e',
      '  execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }',
      '  tie_break action.n asc, action_id desc default_mode skill_enhanced }',
    );
    expect(fmt(text)).toBe(
      lines(
        'skill s {',
        '  version  "1.0.0"',
        '  type     llm',
        '  prompt   "p"',
        '  timeout  300ms hard_limit 500ms',
        '  fallback t',
        '  output {',
        '    rationale: string(20..200),',
        '    tone:      { t: "a" | "b", h: bool }?',
        '  }',
        '  template default when user_state.x > 0.7 {',
        '    rationale: "r"',
        '  }',
        '}',
        '',
        'scenario sc {',
        '  version "1.0.0"',
        '  signals {',
        '    x:  int = 0,',
        '    yy: int = 1',
        '  }',
        '  state {',
        '    e: float(0..1) = clamp(x / 5, 0, 1)',
        '  }',
        '  action_type w {',
        '    n: string',
        '    skill s',
        '  }',
        '  action_type pause {}',
        '  guardrail "G" "g" {',
        '    when  x < 1',
        '    force w',
        '  }',
        '  objective completion weight 0.6 = if action.n == "h" then 1 - e else 0.8',
        '  objective momentum   weight 0.4 = e',
        '  execution_risk weight 0.1 { skill_unavailable 0.3, offline_mode 0.2 }',
        '  tie_break action.n asc, action_id desc',
        '  default_mode skill_enhanced',
        '}',
      ),
    );
  });

  it('glues what belongs together: calls, ranges, list types, unary minus, members, optional types', () => {
    const text = lines(
      'context {',
      '  supplied a : int ( -5 .. 5 ) ?',
      '  supplied b : list < list < string > > = [ "x" , "y" ]',
      '  computed c : int = clamp ( a ?? 0 , 0 , 1 ) - - a * - ( 2 + 1 )',
      '  computed d : bool = payload . text CONTAINS "x" and a IS NOT NULL',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'context {',
        '  supplied a: int(-5..5)?',
        '  supplied b: list<list<string>> = ["x", "y"]',
        '  computed c: int = clamp(a ?? 0, 0, 1) - -a * -(2 + 1)',
        '  computed d: bool = payload.text CONTAINS "x" and a IS NOT NULL',
        '}',
      ),
    );
  });

  it('keeps every literal exactly as written', () => {
    const text = lines(
      'skill s { version "1.0.0" type deterministic output { text: string(..200) }',
      "  template default { text: 'It\\'s \"fine\" {payload.text}' } }",
      'test "literals" { action a context { n: -5, f: 1.50, e: 1e3, s: \'one\', d: "a\\"b", l: [], r: {} } expect GREEN-SKIP by r }',
    );
    const formatted = fmt(text);
    for (const literal of ["'It\\'s \"fine\" {payload.text}'", '-5', '1.50', '1e3', "'one'", '"a\\"b"', 'GREEN-SKIP', '[]', '{}']) {
      expect(formatted).toContain(literal);
    }
    expect(formatted).toContain('  context { n: -5, f: 1.50, e: 1e3, s: \'one\', d: "a\\"b", l: [], r: {} }\n');
  });

  it('keeps an invariant check exactly as written (the compiler records its text)', () => {
    const text = lines(
      'skill s {',
      'version "1.0.0"',
      '  invariant "I-1" "kept":   payload.text   CONTAINS   "x"',
      '  invariant "I-2" "next line":',
      '            payload.text NOT MATCHES \'\\d+\'',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'skill s {',
        '  version "1.0.0"',
        '  invariant "I-1" "kept": payload.text   CONTAINS   "x"',
        '  invariant "I-2" "next line":',
        "    payload.text NOT MATCHES '\\d+'",
        '}',
      ),
    );
  });

  it('keeps the line breaks the author may make, joins the others, and indents continuation lines', () => {
    const text = lines(
      'context {',
      '  supplied age: int',
      '  computed kept: bool =',
      '        age > 1',
      '          and age < 2',
      '  computed grouped: bool = (age > 1',
      '  or age < 0)',
      '}',
      'action review {',
      '  rule',
      '    r { outcome',
      '      GREEN severity t2 when kept }',
      '}',
      'test "t" {',
      '  action review',
      '  context {',
      '      age: 3,',
      '      note: "x"',
      '      }',
      '  expect GREEN',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'context {',
        '  supplied age: int',
        '  computed kept: bool =',
        '    age > 1',
        '    and age < 2',
        '  computed grouped: bool = (age > 1',
        '    or age < 0)',
        '}',
        '',
        'action review {',
        '  rule r {',
        '    outcome  GREEN',
        '    severity t2',
        '    when     kept',
        '  }',
        '}',
        '',
        'test "t" {',
        '  action  review',
        '  context {',
        '    age: 3,',
        '    note: "x"',
        '  }',
        '  expect  GREEN',
        '}',
      ),
    );
  });

  it('names align only in one-line items: a computed attribute broken after `=` keeps one space', () => {
    const text = lines(
      'context {',
      '  supplied relationship: string',
      '  computed is_child: bool = relationship == "child"',
      '  computed partnership_is_recent: bool =',
      '    relationship == "spouse"',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'context {',
        '  supplied relationship: string',
        '  computed is_child:     bool = relationship == "child"',
        '  computed partnership_is_recent: bool =',
        '    relationship == "spouse"',
        '}',
      ),
    );
  });

  it(`breaks an item longer than ${MAX_LINE_WIDTH} columns after \`=\`, then at its top-level and/or chain`, () => {
    const text = lines(
      'context {',
      '  supplied age: int',
      '  supplied since: timestamp',
      '  computed a_fairly_long_attribute_name: bool = age > 18 and age < 65 and request_time - since < 30d and request_time - since > 1d',
      '  computed b: bool = age > 18 or age < 65 or age == 30 or age == 31 or age == 32 or age == 33 or age == 34 or age == 35 or age == 36 or age == 37',
      '}',
      'action review {',
      '  rule r {',
      '    outcome RED',
      '    severity t1',
      '    when age > 18 and age < 65 and request_time - since < 30d and request_time - since > 1d and not (age == 40 or age == 41)',
      '  }',
      '}',
    );
    const formatted = fmt(text);
    expect(formatted).toBe(
      lines(
        'context {',
        '  supplied age:   int',
        '  supplied since: timestamp',
        '  computed a_fairly_long_attribute_name: bool =',
        '    age > 18 and age < 65 and request_time - since < 30d and request_time - since > 1d',
        '  computed b: bool =',
        '    age > 18',
        ...[65, 30, 31, 32, 33, 34, 35, 36, 37].map((n) => (n === 65 ? '    or age < 65' : `    or age == ${n}`)),
        '}',
        '',
        'action review {',
        '  rule r {',
        '    outcome  RED',
        '    severity t1',
        '    when     age > 18',
        '      and age < 65',
        '      and request_time - since < 30d',
        '      and request_time - since > 1d',
        '      and not (age == 40 or age == 41)',
        '  }',
        '}',
      ),
    );
    for (const line of formatted.split('\n')) expect(line.length).toBeLessThanOrEqual(MAX_LINE_WIDTH);
  });

  it('breaks a long template condition in its header line', () => {
    const condition = Array.from({ length: 8 }, (_, i) => `user_state.level_${i} > ${i}`).join(' or ');
    const text = lines('skill s {', '  version "1.0.0"', `  template busy when ${condition} { text: "busy" }`, '}');
    expect(fmt(text)).toBe(
      lines(
        'skill s {',
        '  version "1.0.0"',
        '  template busy when user_state.level_0 > 0',
        ...Array.from({ length: 7 }, (_, i) => `    or user_state.level_${i + 1} > ${i + 1}${i === 6 ? ' {' : ''}`),
        '    text: "busy"',
        '  }',
        '}',
      ),
    );
  });

  it('formats a chain of 10,000 terms without running out of stack', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => `a > ${i}`).join(' and ');
    const text = lines('context {', '  supplied a: int', '}', 'action x {', '  rule r {', '    outcome RED', '    severity t1', `    when ${chain}`, '  }', '}');
    const formatted = fmt(text);
    expect(formatted).toContain('    when     a > 0\n      and a > 1\n');
    expect(formatted.split('\n')).toHaveLength(10_011);
  });
});

describe('adec fmt: comments and blank lines', () => {
  it('keeps every comment where it was written; one blank line between declarations, at most one elsewhere', () => {
    const text = lines(
      '// The world.',
      'world {',
      '  org "acme"   // who',
      '',
      '',
      '  domain "hr"',
      '  version "1.0.0"',
      '}',
      '// Leading comment of the context.',
      'context {',
      '',
      '  // Paragraph one.',
      '  supplied age: int /* years */',
      '',
      '',
      '  supplied note: string?    // free text',
      '  // Last words.',
      '',
      '}',
      'action review { rule r { // note',
      '    outcome RED // why red',
      '    severity t1',
      '    when age > 99 and /* odd */ note IS NULL',
      '  }',
      '}',
      '/* trailing block */',
    );
    expect(fmt(text)).toBe(
      lines(
        '// The world.',
        'world {',
        '  org     "acme" // who',
        '',
        '  domain  "hr"',
        '  version "1.0.0"',
        '}',
        '',
        '// Leading comment of the context.',
        'context {',
        '  // Paragraph one.',
        '  supplied age:  int /* years */',
        '',
        '  supplied note: string?    // free text',
        '  // Last words.',
        '}',
        '',
        'action review {',
        '  rule r { // note',
        '    outcome  RED // why red',
        '    severity t1',
        '    when     age > 99 and /* odd */ note IS NULL',
        '  }',
        '}',
        '/* trailing block */',
      ),
    );
  });

  it('a trailing comment keeps its column (relative to its line) while it fits: hand-aligned comments stay aligned', () => {
    const text = lines(
      'context {',
      '      supplied full_time_student:         bool?            // only asked for adult children',
      '      supplied partnership_registered_at: timestamp?       // domestic partners only',
      '      supplied age: int // the line grows past this comment',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'context {',
        '  supplied full_time_student:         bool?            // only asked for adult children',
        '  supplied partnership_registered_at: timestamp?       // domestic partners only',
        '  supplied age:                       int // the line grows past this comment',
        '}',
      ),
    );
  });

  it('a line comment inside an expression ends its line; block comments stay inline; a multi-line block comment is kept as is', () => {
    const text = lines(
      'context {',
      '  supplied a: int',
      '  computed b: bool = a > 1 // first',
      '    and /* second */ a < 5',
      '  /* a long',
      '     explanation */',
      '  computed c: int = a',
      '}',
    );
    expect(fmt(text)).toBe(
      lines(
        'context {',
        '  supplied a: int',
        '  computed b: bool = a > 1 // first',
        '    and /* second */ a < 5',
        '  /* a long',
        '     explanation */',
        '  computed c: int = a',
        '}',
      ),
    );
  });

  it('leaves no spaces or tabs at the end of a line, after code or after a line comment', () => {
    const text = lines('// leading  \t', 'context {   ', '  supplied a: int // why \t ', '  //   ', '  computed b: bool = a > 1 /* kept */   ', '}  \t');
    const formatted = fmt(text);
    expect(formatted).toBe(lines('// leading', 'context {', '  supplied a: int // why', '  //', '  computed b: bool = a > 1 /* kept */', '}'));
    expect(fmt(text.replaceAll('\n', '\r\n'))).toBe(formatted.replaceAll('\n', '\r\n'));
  });

  it('keeps \\r\\n line endings and a byte-order mark; a file of only comments or blanks', () => {
    expect(fmt('\ufeffworld {\r\n  org "acme"\r\n}\r\ncontext { supplied a: int }\r\n')).toBe(
      '\ufeffworld {\r\n  org "acme"\r\n}\r\n\r\ncontext {\r\n  supplied a: int\r\n}\r\n',
    );
    expect(fmt('// only a comment\n\n\n\n// and another')).toBe('// only a comment\n\n// and another\n');
    expect(fmt('  \n\n')).toBe('');
    expect(fmt('')).toBe('');
  });
});

describe('adec fmt: refusal', () => {
  it('refuses a file with a syntax error, with exactly the parser diagnostics', () => {
    const text = 'context {\n  supplied a: int\n  computed b: bool = a >\n}\n';
    const result = formatSource('w/broken.adec', text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diagnostics).toEqual(parseSource('w/broken.adec', text).diagnostics);
      expect(result.diagnostics.length).toBeGreaterThan(0);
    }
  });

  it('refuses lexical errors too: an unterminated string, a bad character, an unterminated comment', () => {
    for (const text of ['context { supplied a: "x }\n', 'context { supplied a: int & }\n', 'context { supplied a: int }\n/* never closed\n']) {
      const result = formatSource('w/broken.adec', text);
      expect(result.ok, text).toBe(false);
    }
  });
});
