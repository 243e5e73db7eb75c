/**
 * A scenario's candidate (`action`) has a field only some of its action types declare: reading
 * it without a check is ADEC3007, and the error names the action types that lack it, so the
 * author sees why a field they declared "may be absent".
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

function scenario(types: readonly (readonly [string, boolean])[]): string {
  const actionTypes = types.map(([name, hasMinutes]) => `  action_type ${name} {\n    title: string(..60)\n${hasMinutes ? '    minutes: int\n' : ''}  }\n`).join('');
  return `${HEADER}scenario s {\n  version "1.0.0"\n${actionTypes}  objective length weight 1 = action.minutes / 60\n}\n`;
}

describe('a candidate field some action types lack (ADEC3007)', () => {
  // Generated: three action types, each with or without `minutes`, at least one with it.
  const layouts = Array.from({ length: 7 }, (_, mask) => ['lesson', 'review', 'break'].map((name, i) => [name, ((mask + 1) >> i) & 1 ? true : false] as const));
  it.each(layouts.map((layout) => [layout.map(([name, has]) => `${name}${has ? '' : ' (none)'}`).join(', '), layout] as const))('%s', (_name, layout) => {
    const lacking = layout.filter(([, has]) => !has).map(([name]) => name);
    const errors = check(scenario(layout)).diagnostics.filter((d) => d.code === 'ADEC3007');
    if (lacking.length === 0) {
      expect(errors).toEqual([]);
      return;
    }
    expect(errors.map((d) => [d.message, d.notes])).toEqual([['`action.minutes` may be absent (int?); use `??` or check `IS NOT NULL` first', [`a candidate of action type ${lacking.map((name) => `\`${name}\``).join(' or ')} has no \`minutes\``]]]);
  });
});
