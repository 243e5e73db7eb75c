/**
 * A skill's `user_state` is filled by name from the signals and state of the scenario that hands
 * it the action (ADEC4027 at the field when a scenario has no such name, or one of another type):
 * generated over one and two scenarios, each providing the field as a signal, as state, not at
 * all, under a near name, or with another type; the field required or optional; the skill named
 * by the action type or reached as an llm skill's fallback.
 */
import { describe, expect, it } from 'vitest';
import { HEADER, check } from './helpers.js';

const PROVIDERS = {
  signal: 'signals { streak: int(0..365) = 0 }',
  state: 'signals { days: int(0..365) = 0 }\n  state { streak: int(0..365) = days }',
  none: 'signals { days: int(0..365) = 0 }',
  nearName: 'signals { streaks: int(0..365) = 0 }',
  otherType: 'signals { streak: string(..10) = "" }',
} as const;
type Provider = keyof typeof PROVIDERS;

const SKILLS = `skill note {
  version "1.0.0"
  type    deterministic
  timeout 20ms
  user_state { streak: FIELD_TYPE }
  output { text: string(..200) }
  template default { text: "Keep going" }
}
skill pitch {
  version  "1.0.0"
  type     llm
  prompt   "Say something kind"
  fallback note
  output { text: string(..200) }
}
`;

function scenario(index: number, provider: Provider, skill: string): string {
  return `scenario s${index} {\n  version "1.0.0"\n  ${PROVIDERS[provider]}\n  action_type walk {\n    minutes: int\n    skill ${skill}\n  }\n  objective effort weight 1.0 = action.minutes / 60\n}\n`;
}

interface Layout {
  readonly providers: readonly Provider[];
  readonly optional: boolean;
  readonly viaFallback: boolean;
}

function world({ providers, optional, viaFallback }: Layout): string {
  const skills = SKILLS.replace('FIELD_TYPE', optional ? 'int(0..365)?' : 'int(0..365)');
  return `${HEADER}${skills}${providers.map((p, i) => scenario(i + 1, p, viaFallback ? 'pitch' : 'note')).join('')}`;
}

/** The 1-based lines of `source` that contain `text`. */
const linesWith = (source: string, text: string) => source.split('\n').flatMap((line, i) => (line.includes(text) ? [i + 1] : []));

function expected(layout: Layout): string[][] {
  const { providers, optional, viaFallback } = layout;
  const skillLines = linesWith(world(layout), '    skill ');
  const handsOver = (i: number) =>
    `scenario \`s${i}\` hands action type \`walk\` to ${viaFallback ? 'skill `pitch`, which falls back to `note`' : 'skill `note`'} at world.adec:${skillLines[i - 1]}:11`;
  const scenarios = providers.map((provider, i) => ({ provider, index: i + 1 }));
  const lacking = scenarios.filter((s) => s.provider === 'none' || s.provider === 'nearName');
  const reports: string[][] = [];
  if (lacking.length > 0 && !(optional && lacking.length < scenarios.length)) {
    const who = lacking.length === 1 ? `scenario \`s${lacking[0]!.index}\` has` : `scenarios \`s${lacking[0]!.index}\` and \`s${lacking[1]!.index}\` have`;
    const help = lacking.some((s) => s.provider === 'nearName') ? 'did you mean `streaks`?' : '';
    reports.push([`skill \`note\` reads user_state \`streak\`, but ${who} no signal or state of that name, so it is always absent (null) there`, help, ...lacking.map((s) => handsOver(s.index))]);
  }
  for (const { index } of scenarios.filter((s) => s.provider === 'otherType')) {
    reports.push([`skill \`note\` reads user_state \`streak\`, but signal \`streak\` of scenario \`s${index}\` is string(..10), the skill expects int(0..365)${optional ? '?' : ''}`, '', handsOver(index)]);
  }
  return reports;
}

const reported = (source: string) =>
  check(source).diagnostics.map((d) => {
    expect([d.code, d.span.line, d.span.column], d.message).toEqual(['ADEC4027', linesWith(source, 'user_state {')[0], 16]);
    return [d.message, d.help ?? '', ...(d.notes ?? [])];
  });

describe('user_state fields no scenario provides (ADEC4027)', () => {
  const kinds = Object.keys(PROVIDERS) as Provider[];
  const providerSets = [...kinds.map((k) => [k]), ...kinds.flatMap((a) => kinds.map((b) => [a, b]))];
  const layouts = providerSets.flatMap((providers) => [false, true].flatMap((optional) => [false, true].map((viaFallback): Layout => ({ providers, optional, viaFallback }))));

  it(`reports each scenario that lacks the field or gives it another type, at the field (${layouts.length} generated)`, () => {
    for (const layout of layouts) {
      expect(reported(world(layout)).sort(), JSON.stringify(layout)).toEqual(expected(layout).sort());
    }
  });

  it('is silent on a skill no scenario hands an action to', () => {
    expect(check(`${HEADER}${SKILLS.replace('FIELD_TYPE', 'int(0..365)')}`).diagnostics).toEqual([]);
  });
});
