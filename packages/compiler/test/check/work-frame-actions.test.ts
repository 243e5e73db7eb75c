/**
 * A work frame's action lists (ADEC5009): a name one edit away from an action of the world is
 * that action mistyped, and warned at the name; the action's own name, another action's, and
 * a tool's name adec does not know (two edits or more away) are not.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const ACTIONS = ['add_dependent', 'submit_claim', 'change_plan'];

function world(field: string, names: readonly string[]): string {
  const action = (name: string, i: number) =>
    `action ${name} {\n  rule r${i} {\n    outcome RED\n    severity t2\n    when amount > ${i}\n    reason "no"\n  }\n${i === 0 ? `  on RED {\n    ${field} [${names.map((n) => `"${n}"`).join(', ')}]\n  }\n` : ''}}\n`;
  return `${HEADER}context { supplied amount: int(0..100) }\n${ACTIONS.map(action).join('')}`;
}

/** Every one-edit variant of `name`: a letter changed, added or dropped, two neighbours swapped. */
function oneEditAway(name: string): string[] {
  const variants = new Set<string>();
  for (let i = 0; i < name.length; i++) {
    variants.add(name.slice(0, i) + name.slice(i + 1));
    variants.add(name.slice(0, i) + (name[i] === 'x' ? 'y' : 'x') + name.slice(i + 1));
    if (i + 1 < name.length && name[i] !== name[i + 1]) variants.add(name.slice(0, i) + name[i + 1]! + name[i]! + name.slice(i + 2));
  }
  variants.add(`${name}s`);
  return [...variants].filter((variant) => !ACTIONS.includes(variant) && /^[a-z_]+$/.test(variant));
}

const warnings = (source: string) => check(source).diagnostics.map((d) => [d.code, d.span.line, d.message, d.help]);

describe('action names in a work frame (ADEC5009)', () => {
  const cases = ['allowed_actions', 'forbidden_actions'].flatMap((field) => ACTIONS.flatMap((action) => oneEditAway(action).map((typo) => [field, action, typo] as const)));
  it(`warns at every one-edit typo of an action, in both lists (${cases.length} generated)`, () => {
    for (const [field, action, typo] of cases) {
      expect(warnings(world(field, [typo])), `${field} ${typo}`).toEqual([['ADEC5009', 11, `\`${field}\` names \`${typo}\`, which is not an action of the world but is close to one`, `did you mean \`${action}\`?`]]);
    }
  });

  it.each(['allowed_actions', 'forbidden_actions'])('is silent on %s naming actions exactly, and tools two edits or more away', (field) => {
    expect(warnings(world(field, [...ACTIONS, 'resubmit_claim', 'escalate_to_human', 'add_dependents_v2', 'plan']))).toEqual([]);
  });
});
