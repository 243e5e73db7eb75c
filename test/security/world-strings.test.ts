/**
 * World text never becomes code (issue 12, finding 1). A world string holding U+2028 followed
 * by text shaped like the generator's old splice marker once made world text top-level code in
 * the bundle; now every emitted literal is ASCII, the module is assembled by position, and the
 * build checks the bundle's shape against the model.
 *
 * Property: random strings over all Unicode planes, biased toward what breaks generated code
 * (line terminators, quotes, backslashes, comment and template delimiters, marker text, lone
 * surrogates), in every place a world holds a string — reasons, reason templates, enum members,
 * defaults, regex patterns, work_frame fields, skill descriptions and templates, test names and
 * test values — either build and round-trip exactly through a real isolate with the registries
 * unchanged, or are refused with a diagnostic that has a code and a position (never a crash).
 * Replay with ADEC_PROPERTY_SEED=<seed>; run longer with ADEC_PROPERTY_RUNS=<n>.
 */
import { createContext, runInContext } from 'node:vm';
import { buildWorld, type BuildResult } from '@adec/compiler';
import { decide } from '@adec/runtime';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BUNDLE_GLOBAL_NAME } from '../../packages/compiler/src/bundle/index.js';
import { verifyBundleShape } from '../../packages/compiler/src/bundle/verify-bundle-shape.js';
import { checkSources } from '@adec/compiler';
import { asTestBundle, loadTestBundle } from '../support/runtime.js';

const SEED = process.env['ADEC_PROPERTY_SEED'] === undefined ? 20_261_125 : Number(process.env['ADEC_PROPERTY_SEED']);
const RUNS = process.env['ADEC_PROPERTY_RUNS'] === undefined ? 100 : Number(process.env['ADEC_PROPERTY_RUNS']);

/** A string as an adec string literal: the only escape is `\"` (a backslash is literal). */
function adecString(value: string): string {
  return `"${value.replace(/"/g, '\\"')}"`;
}

/** A string as interpolated text (reasons, templates): braces doubled. */
function adecTemplate(value: string): string {
  return adecString(value.replace(/[{}]/g, (brace) => brace + brace));
}

/** A pattern that matches exactly `value` (as a substring). */
function literalPattern(value: string): string {
  return value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Strings a world can spell: one line, not ending in a backslash (it would escape the quote). */
const representable = (s: string): boolean => !/[\r\n]/.test(s) && !s.endsWith('\\') && s !== 'plain';

const HOSTILE = ['\u2028', '\u2029', '\u0085', '"', '\\', "'", '`', '${', '*/', '/*', '//', '// @adec-part 0', '\u2028// @adec-part 3\u2028', '}', '{', '</script>', '\0', '\u007f', '\ufeff', '\ud83d\ude00', '\u{10ffff}', 'é', '\u0301', '\ud800', '\udfff'];
const hostileString = fc
  .array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) }), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))
  .filter((s) => representable(s) && s.trim().length > 0);

function world(s: string, options: { readonly withPattern: boolean }): string {
  return `world { org "adec-test" domain "strings" version "1.0.0" }

context {
  system   request_time: timestamp
  supplied note: string = ${adecString(s)}
  supplied kind: "plain" | ${adecString(s)}
}

action probe {
  rule by_reason {
    outcome  RED
    severity t1
    when     kind == ${adecString(s)}
    reason   ${adecTemplate(s)}
  }
  rule by_template {
    outcome  YELLOW
    severity t2
    when     note == ${adecString(s)}
    reason   ${adecTemplate(`[${s}|`).slice(0, -1)}{note}|${adecTemplate(s).slice(1)}
  }
${
  options.withPattern
    ? `  rule by_pattern {
    outcome  GREEN
    severity t3
    when     note MATCHES ${adecString(literalPattern(s))}
    reason   "pattern"
  }
`
    : ''
}
  on RED {
    mode             "blocked"
    next_action      ${adecString(s)}
    next_human_owner ${adecString(s)}
  }
}

skill probe_skill {
  version     "1.0.0"
  type        deterministic
  description ${adecString(s)}

  action_metadata {
    session_name: string
  }

  output {
    rationale: string(0..10000)
  }

  template default {
    rationale: ${adecTemplate(s)}
  }
}

test ${adecString(s)} {
  action  probe
  context { kind: ${adecString(s)}, note: ${adecString(s)} }
  expect  RED by by_reason
}
`;
}

async function build(text: string): Promise<BuildResult> {
  return buildWorld({ root: 'strings', files: [{ path: 'strings/world.adec', text }] });
}

/** The registries a string may never change, read from the bundle run in a bare context. */
function registries(bundle: string): unknown {
  const m = runInContext(`${bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as Record<string, unknown>;
  const keys = (value: unknown) => Object.keys(value as object);
  return {
    outcome: m['_RULE_OUTCOME'],
    severity: m['_RULE_SEVERITY'],
    suppresses: m['_RULE_SUPPRESSES'],
    reads: m['_RULE_READS'],
    functions: keys(m['_RULE_FUNCTIONS']),
    appliesWhen: keys(m['_RULE_APPLIES_WHEN']),
    actions: keys(m['_ACTIONS']),
    skills: keys(m['_SKILLS']),
    exports: keys(m),
  };
}

const plain = build(world('plain text', { withPattern: true }));
const refused: string[] = [];
let roundTrips = 0;

async function checkRoundTrip(s: string, withPattern: boolean): Promise<void> {
  const result = await build(world(s, { withPattern }));
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (result.artifacts === undefined) {
    refused.push(`${JSON.stringify(s)}: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
    // Refused: with a code and a position, never an internal error.
    expect(errors.length, JSON.stringify(s)).toBeGreaterThan(0);
    for (const d of errors) {
      expect(d.code, `${JSON.stringify(s)}: ${d.message}`).not.toBe('ADEC9001');
      expect(d.span.line).toBeGreaterThan(0);
    }
    return;
  }
  const { bundle, moduleSource, manifest } = result.artifacts;
  expect(/^[\x00-\x7f]*$/.test(moduleSource), 'module.ts is ASCII').toBe(true);
  expect(/^[\x00-\x7f]*$/.test(bundle), 'bundle.js is ASCII').toBe(true);
  const baseline = (await plain).artifacts!;
  const expected = registries(baseline.bundle) as { exports: string[] };
  const actual = registries(bundle);
  expect(actual).toEqual(withPattern ? expected : { ...expected, ...{ functions: expect.any(Array), outcome: expect.any(Object), severity: expect.any(Object), reads: expect.any(Object) } });
  expect(manifest.rules.map((r) => [r.id, r.outcome, r.severity])).toEqual(
    baseline.manifest.rules.filter((r) => withPattern || r.id !== 'by_pattern').map((r) => [r.id, r.outcome, r.severity]),
  );

  // Through a real isolate: the strings come back exactly.
  const module = await loadTestBundle(asTestBundle(result.artifacts));
  try {
    const red = await decide(module, { action: 'probe', context: { kind: s } });
    expect(red.ok && red.decision.status).toBe('RED');
    if (!red.ok) return;
    const byReason = red.decision.decision_metadata.matched_rule_outcomes.find((o) => o.rule_id === 'by_reason');
    expect(byReason?.reason).toBe(s);
    expect(red.decision.work_frame.next_action).toBe(s);
    expect(red.decision.work_frame.next_human_owner).toBe(s);
    const byTemplate = red.decision.decision_metadata.matched_rule_outcomes.find((o) => o.rule_id === 'by_template');
    // `note` took its default, the string itself.
    expect(byTemplate?.reason).toBe(`[${s}|${s}|${s}`);
    if (withPattern) expect(red.decision.decision_metadata.matched_rules).toContain('by_pattern');
  } finally {
    await module.evaluator.dispose();
  }
  const m = runInContext(`${bundle}\n${BUNDLE_GLOBAL_NAME};`, createContext(Object.create(null) as object)) as {
    _SKILLS: Record<string, { description: string }>;
  };
  expect(m._SKILLS['probe_skill']?.description).toBe(s);
  expect(result.world?.tests[0]?.name).toBe(s);
  roundTrips++;
}

describe('world strings never become code', () => {
  test('the U+2028 splice-marker exploit builds a bundle with unchanged registries', async () => {
    // Shaped like the old generator's line marker, after a character JavaScript's multiline
    // anchors take for a line break: it used to replace this text by a generated statement.
    await checkRoundTrip('\u2028// @adec-part 0\u2028', true);
    await checkRoundTrip('x\u2029// @adec-part 12', true);
  });

  test('random strings over all planes, in every place a world holds one', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, async (s) => {
        // A pattern is a regex: its own checks may refuse it; build without it too.
        await checkRoundTrip(s, false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('random strings as regular expressions: matched literally, or refused with a position', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, async (s) => {
        await checkRoundTrip(s, true);
      }),
      { seed: SEED + 1, numRuns: Math.max(10, Math.round(RUNS / 2)) },
    );
  });

  test('most random strings build (the property is not vacuous)', () => {
    expect(roundTrips, refused.slice(0, 5).join('\n')).toBeGreaterThan(refused.length);
  });

  test('a lone surrogate in a world is refused with its position, not an internal error', () => {
    for (const lone of ['\ud800', '\udfff', 'a\udc00b', '\ud83d']) {
      const { diagnostics } = checkSources({ root: 'strings', files: [{ path: 'strings/world.adec', text: world(lone, { withPattern: false }) }] });
      const errors = diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.code)).toContain('ADEC1009');
      const first = errors.find((d) => d.code === 'ADEC1009')!;
      expect(first.span.line).toBe(5);
      expect(first.message).toMatch(/^lone surrogate `\\uD[89A-F][0-9A-F]{2}` is not a character$/);
      expect(errors.map((d) => d.code)).not.toContain('ADEC9001');
    }
  });
});

describe('the bundle shape check', () => {
  const tamper = async (edit: (bundle: string) => string): Promise<readonly string[]> => {
    const built = (await plain).artifacts!;
    return verifyBundleShape(edit(built.bundle), (await plain).world!);
  };

  test('accepts the bundle as built', async () => {
    expect(await tamper((b) => b)).toEqual([]);
  });

  test.each([
    ['an extra top-level statement', (b: string) => `${b}__adec_module._RULE_OUTCOME.by_reason = "GREEN";\n`, /the bundle is not `var __adec_module = \(\(\) => \{…\}\)\(\);`/],
    ['code after a registry', (b: string) => b.replace(/(var _RULE_SEVERITY = \{[^;]*\});/, '$1, _RULE_OUTCOME.by_reason = "GREEN";'), /_RULE_SEVERITY is followed by more than its object literal/],
    ['a computed value in a data registry', (b: string) => b.replace(/by_reason: "RED"/, 'by_reason: ["GR" + "EEN"][0]'), /_RULE_OUTCOME\[`by_reason`\] differs/],
    ['an assignment inside the module', (b: string) => b.replace('  return __toCommonJS', '  _RULE_OUTCOME.by_reason = "GREEN";\n  return __toCommonJS'), /unexpected statement/],
    ['a changed outcome', (b: string) => b.replace(/by_reason: "RED"/, 'by_reason: "GREEN"'), /_RULE_OUTCOME\[`by_reason`\] differs/],
    ['an extra registry entry', (b: string) => b.replace('var _RULE_SEVERITY = {', 'var _RULE_SEVERITY = {\n    injected: "t3",'), /unexpected entry `injected`/],
    ['a redeclared helper constant', (b: string) => b.replace('  return __toCommonJS', '  var _RULE_OUTCOME = {};\n  return __toCommonJS'), /declared twice/],
    ['a reordered rule list', (b: string) => b.replace(/"by_reason",\s*"by_template"/, '"by_template", "by_reason"'), /_ACTIONS.probe.rules differs/],
    ['an unknown declaration', (b: string) => b.replace('  return __toCommonJS', '  var evil = 1;\n  return __toCommonJS'), /unexpected declaration `evil`/],
  ])('refuses %s', async (_name, edit, problem) => {
    const problems = await tamper(edit);
    expect(problems.join('\n')).toMatch(problem);
  });
});
