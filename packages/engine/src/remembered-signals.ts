/**
 * What a user's short-term memory may hold for a scenario: values of its declared signals, in
 * wire form, each fitting its signal's type. Checked when feedback records them, so memory
 * never holds what a later selection would have to pass over.
 */
import type { LoadedModule } from '@adec/runtime';
import { DEFAULT_SELECTION_TIME_LIMIT_MS } from './select.js';
import { scenarioCatalog } from './scenario-catalog.js';
import type { RequestProblem, SelectionError } from './selection-error.js';
import { selectionError } from './selection-error.js';

export interface ObservedEffect {
  readonly signal: string;
  readonly value: unknown;
}

/** The problems of `effects` for `scenario` (paths `observed_effects[i]…`); an empty list when all fit. */
export async function rememberedSignalProblems(module: LoadedModule, scenario: string, effects: readonly ObservedEffect[], timeLimitMs = DEFAULT_SELECTION_TIME_LIMIT_MS): Promise<{ readonly ok: true; readonly problems: readonly RequestProblem[] } | { readonly ok: false; readonly error: SelectionError }> {
  const catalog = await scenarioCatalog(module, timeLimitMs);
  if (!catalog.ok) return catalog;
  const spec = catalog.catalog.get(scenario);
  if (spec === undefined) return { ok: false, error: selectionError('UNKNOWN_SCENARIO', `the module has no scenario \`${scenario}\``) };
  const problems: RequestProblem[] = [];
  effects.forEach((effect, i) => {
    const signal = spec.signals.find((declared) => declared.name === effect.signal);
    if (signal === undefined) {
      problems.push({ path: `observed_effects[${i}].signal`, message: `\`${effect.signal}\` is not a signal of scenario \`${scenario}\` (signals: ${spec.signals.map((s) => s.name).join(', ') || 'none'})` });
      return;
    }
    signal.convert(effect.value, `observed_effects[${i}].value`, problems);
  });
  return { ok: true, problems };
}
