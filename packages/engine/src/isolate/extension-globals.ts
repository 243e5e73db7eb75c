/**
 * What the selection extension finds on the isolate's global object, and the entry points it
 * adds. The runtime's evaluator (runtime/src/sandbox/isolate/evaluator.ts) offers
 * `__adec_extend` until the seal; selection-extension.ts hands over the look-alike table just
 * before this script runs. Nothing else of the host is reachable here.
 */
import type { ConfusablePrototypes } from '../skills/text/read-text.js';
import type { SelectionModule } from './selection-module.js';

/** What the runtime's evaluator hands an extension besides the module. */
export interface EvaluatorHelpers {
  /** A thrown value as one line of text, whatever was thrown. */
  readonly messageOf: (error: unknown) => string;
  /** The host's monotonic clock in milliseconds (only for the trace's stage timings). */
  readonly now: () => number;
}

export interface ExtensionGlobals {
  __adec_extend?: (install: (module: SelectionModule, helpers: EvaluatorHelpers) => void) => void;
  /** The host's look-alike table (skills/text/confusable-prototypes.ts), taken away at once. */
  __adec_confusable_prototypes?: ConfusablePrototypes;
  __adec_select?: (requestJson: string) => string;
  __adec_skills?: () => string;
  __adec_scenarios?: () => string;
  __adec_skill_render?: (skillId: string, inputJson: string) => string;
  __adec_skill_prompt?: (skillId: string, inputJson: string) => string;
  __adec_skill_invariants?: (skillId: string, inputJson: string) => string;
}

export const extensionGlobals = globalThis as unknown as ExtensionGlobals;
