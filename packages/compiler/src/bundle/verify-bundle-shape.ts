/**
 * The bundle's shape, checked against the model it was generated from (pipeline step 4, after
 * esbuild). World text reaches the module only as escaped literals, so it can never become
 * code; this check makes sure of it independently of how the module was assembled: the bundle
 * is parsed, and its statements and registries must be exactly those the model calls for.
 *
 * * Top level: one statement, `var __adec_module = (() => { … })();`.
 * * Inside: esbuild's runtime, `var module_exports = {}`, one `__export(…)`, the generator's
 *   helper functions and regex constants, the ABI constants, `return __toCommonJS(…)` — each
 *   name declared once, nothing else (no expression statement, no assignment, no block).
 * * The registries: `_WORLD`, `_ACTIONS` (actions and their rule lists), `_RULE_OUTCOME`,
 *   `_RULE_SEVERITY`, `_RULE_SUPPRESSES` and `_RULE_READS` (keys and values), the keys of
 *   `_RULE_FUNCTIONS`, `_RULE_APPLIES_WHEN`, `_COMPUTED`, `_SCENARIOS`, `_SKILLS`, `_INVARIANTS`.
 *
 * Any difference is a bug in adec (or a build that was tampered with): the build fails with an
 * internal error naming it. The bundle is read by a scanner for esbuild's output
 * (scan-bundle.ts), in one linear pass.
 */
import { ABI_VERSION } from '../generate/abi-version.js';
import { rulesInEvaluationOrder } from '../generate/emit-actions.js';
import { HELPER_NAMES } from '../generate/runtime-helpers.js';
import type { CheckedWorld } from '../model/index.js';
import { BUNDLE_GLOBAL_NAME } from './bundle-module.js';
import { objectEntries, splitStatements, stringData, type ObjectEntry } from './scan-bundle.js';

/** esbuild's IIFE runtime for a module with exports (format iife, platform neutral). */
const ESBUILD_RUNTIME = ['__defProp', '__getOwnPropDesc', '__getOwnPropNames', '__hasOwnProp', '__export', '__copyProps', '__toCommonJS', 'module_exports'];
const SHARED_RESULTS = ['NOT_MATCHED', 'MATCHED'];
const REGISTRIES = [
  '_ABI_VERSION',
  '_WORLD',
  '_ACTIONS',
  '_RULE_FUNCTIONS',
  '_RULE_APPLIES_WHEN',
  '_RULE_OUTCOME',
  '_RULE_SEVERITY',
  '_RULE_SUPPRESSES',
  '_RULE_READS',
  '_COMPUTED',
  '_SCENARIOS',
  '_SKILLS',
  '_INVARIANTS',
];
const FIXED_NAMES = new Set([...ESBUILD_RUNTIME, ...SHARED_RESULTS, ...REGISTRIES]);
const HELPERS = new Set<string>(HELPER_NAMES);
const REGEX_CONSTANT = /^RE_(0|[1-9][0-9]*)$/;
const IIFE_START = `var ${BUNDLE_GLOBAL_NAME} = (() => {\n`;
const IIFE_END = '})();\n';
const RETURN = 'return __toCommonJS(module_exports);';

/** What the model says a registry holds: key → its string values, or undefined to check the key only. */
type Expected = ReadonlyMap<string, readonly string[] | undefined>;

/** Every difference between the bundle and the model; empty when the bundle is as generated. */
export function verifyBundleShape(bundle: string, world: CheckedWorld): readonly string[] {
  const body = iifeBody(bundle);
  if (body === undefined) return [`the bundle is not \`var ${BUNDLE_GLOBAL_NAME} = (() => {…})();\` after its header comments`];
  const statements = splitStatements(body);
  if (!statements.ok) return [statements.problem];
  const problems: string[] = [];
  const declarations = declaredNames(statements.value, problems);
  for (const name of FIXED_NAMES) if (!declarations.has(name)) problems.push(`the bundle does not declare \`${name}\``);
  if (declarations.has('_ABI_VERSION') && declarations.get('_ABI_VERSION') !== `var _ABI_VERSION = ${ABI_VERSION};`) problems.push(`_ABI_VERSION is not ${ABI_VERSION}`);
  for (const [name, expected] of expectedRegistries(world)) {
    const statement = declarations.get(name);
    if (statement !== undefined) problems.push(...compareRegistry(name, statement, expected));
  }
  const actions = declarations.get('_ACTIONS');
  if (actions !== undefined) problems.push(...compareRuleLists(actions, world));
  return problems;
}

/** The text between the IIFE's braces, after the header's `//` lines. */
function iifeBody(bundle: string): string | undefined {
  let start = 0;
  while (bundle.startsWith('//', start)) start = bundle.indexOf('\n', start) + 1;
  if (start === 0 && bundle.startsWith('//')) return undefined;
  if (!bundle.startsWith(IIFE_START, start) || !bundle.endsWith(IIFE_END)) return undefined;
  return bundle.slice(start + IIFE_START.length, bundle.length - IIFE_END.length);
}

/** Each declared name's statement; every statement that is not an allowed one is a problem. */
function declaredNames(statements: readonly string[], problems: string[]): Map<string, string> {
  const declared = new Map<string, string>();
  let exportCalls = 0;
  statements.forEach((statement, index) => {
    const variable = /^var ([A-Za-z_$][\w$]*) = /.exec(statement)?.[1];
    const helper = /^function ([A-Za-z_$][\w$]*)\(/.exec(statement)?.[1];
    const name = variable ?? helper;
    const allowed = variable !== undefined ? FIXED_NAMES.has(variable) || REGEX_CONSTANT.test(variable) : helper !== undefined && HELPERS.has(helper);
    if (name !== undefined && allowed) {
      if (declared.has(name)) problems.push(`\`${name}\` is declared twice`);
      declared.set(name, statement);
    } else if (name !== undefined) {
      problems.push(`unexpected declaration \`${name}\` in the bundle`);
    } else if (statement.startsWith('__export(module_exports, {') && exportCalls++ === 0) {
      // esbuild's export table: one call.
    } else if (statement !== RETURN || index !== statements.length - 1) {
      problems.push(`unexpected statement in the bundle: \`${preview(statement)}\``);
    }
  });
  if (statements[statements.length - 1] !== RETURN) problems.push(`the bundle does not end with \`${RETURN}\``);
  return declared;
}

/** The registries whose entries follow from the model alone, rule by rule. */
function expectedRegistries(world: CheckedWorld): ReadonlyMap<string, Expected> {
  const rules = world.actions.flatMap((action) => rulesInEvaluationOrder(action));
  const keysOf = (ids: readonly string[]): Expected => new Map(ids.map((id) => [id, undefined]));
  const { org, domain, world: id, version } = world.header;
  return new Map<string, Expected>([
    ['_WORLD', new Map(Object.entries({ org, domain, world: id, version }).map(([key, value]) => [key, [value]]))],
    ['_ACTIONS', keysOf(world.actions.map((a) => a.name))],
    ['_RULE_FUNCTIONS', keysOf(rules.map((r) => r.id))],
    ['_RULE_APPLIES_WHEN', keysOf(rules.filter((r) => r.appliesWhen !== undefined).map((r) => r.id))],
    ['_RULE_OUTCOME', new Map(rules.map((r) => [r.id, [r.outcome]]))],
    ['_RULE_SEVERITY', new Map(rules.map((r) => [r.id, [r.severity]]))],
    ['_RULE_SUPPRESSES', new Map(rules.filter((r) => r.suppresses.length > 0).map((r) => [r.id, r.suppresses]))],
    ['_RULE_READS', new Map(rules.map((r) => [r.id, r.reads]))],
    ['_COMPUTED', keysOf(world.actions.map((a) => a.name))],
    ['_SCENARIOS', keysOf(world.scenarios.map((s) => s.id))],
    ['_SKILLS', keysOf(world.skills.map((s) => s.id))],
    ['_INVARIANTS', keysOf(world.skills.map((s) => s.id))],
  ]);
}

/** A registry's entries: its statement is exactly `var NAME = { … };`. */
function registryEntries(name: string, statement: string): readonly ObjectEntry[] | string {
  const literal = objectEntries(statement, `var ${name} = `.length);
  if (!literal.ok) return `${name}: ${literal.problem}`;
  if (statement.slice(literal.value.end) !== ';') return `${name} is followed by more than its object literal`;
  return literal.value.entries;
}

/** Keys in the model's order, and the string values the model gives them. */
function compareRegistry(name: string, statement: string, expected: Expected): readonly string[] {
  const entries = registryEntries(name, statement);
  if (typeof entries === 'string') return [entries];
  const problems: string[] = [];
  for (const entry of entries) {
    if (!expected.has(entry.key)) {
      problems.push(`${name} has an unexpected entry \`${entry.key}\``);
      continue;
    }
    const values = expected.get(entry.key);
    if (values === undefined) continue;
    const data = stringData(entry.value);
    if (!(data.isStringData && sameStrings(data.strings, values))) problems.push(`${name}[\`${entry.key}\`] differs from the model`);
  }
  const keys = entries.map((e) => e.key);
  if (problems.length === 0 && !sameStrings(keys, [...expected.keys()])) problems.push(`${name} holds [${keys.join(', ')}], expected [${[...expected.keys()].join(', ')}]`);
  return problems;
}

/** `_ACTIONS[action].rules`: the action's rules in evaluation order. */
function compareRuleLists(statement: string, world: CheckedWorld): readonly string[] {
  const entries = registryEntries('_ACTIONS', statement);
  if (typeof entries === 'string') return [];
  const problems: string[] = [];
  for (const action of world.actions) {
    const fields = objectEntries(entries.find((e) => e.key === action.name)?.value ?? '', 0);
    const rules = fields.ok ? fields.value.entries.find((f) => f.key === 'rules') : undefined;
    const data = rules === undefined ? undefined : stringData(rules.value);
    const expected = rulesInEvaluationOrder(action).map((r) => r.id);
    if (data === undefined || !data.isStringData || !sameStrings(data.strings, expected)) problems.push(`_ACTIONS.${action.name}.rules differs from the model`);
  }
  return problems;
}

function sameStrings(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && actual.every((value, i) => value === expected[i]);
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
