/**
 * The work_frame (docs/spec/adjudication.md §5): the behaviour contract the agent operates within after a
 * decision. Each field comes from the action's `on STATUS` template when it sets one, else
 * from the per-status default below; `missing_evidence` always comes from context binding.
 */
import type { WorkFrame, WorkFrameTemplate } from '@adec/abi';
import { deepFreeze } from '../deep-freeze.js';
import type { ActionSpec } from '../module/module-metadata.js';
import type { Status } from './status.js';

/** Its fields, in the order a decision writes them, are abi's `WORK_FRAME_FIELDS`. */
export type { WorkFrame };

/** What an agent should do by default for each status (docs/spec/adjudication.md §5.1). */
function defaultFrame(status: Status, action: string): WorkFrame {
  const frame = (mode: string, next_action: string, allowed: string[], forbidden: string[]): WorkFrame => ({
    mode,
    next_action,
    allowed_actions: allowed,
    forbidden_actions: forbidden,
    required_output: [],
    missing_evidence: [],
    next_human_owner: null,
  });
  switch (status) {
    case 'GREEN':
      return frame('proceed', 'execute_action', [action], []);
    case 'GREEN-SKIP':
      return frame('no_op', 'skip_action', [], [action]);
    case 'YELLOW':
      return frame('review', 'route_to_review', [], [action]);
    case 'RED':
      return frame('blocked', 'escalate', [], [action]);
  }
}

/** The next_action when its supplied context is invalid or incomplete. */
export const GATHER_EVIDENCE_AND_RETRY = 'gather_evidence_and_retry';

export function buildWorkFrame(
  status: Status,
  action: string,
  template: WorkFrameTemplate | undefined,
  missingEvidence: readonly string[] = [],
): WorkFrame {
  const base = { ...defaultFrame(status, action), ...template, missing_evidence: missingEvidence };
  return missingEvidence.length > 0 ? { ...base, next_action: GATHER_EVIDENCE_AND_RETRY } : base;
}

const standardFrames = new WeakMap<ActionSpec, Map<Status, WorkFrame>>();

/**
 * The work_frame of a decision whose context bound: the same for every such decision of the
 * action with this status, so it is built once per action and status and shared, frozen.
 */
export function standardWorkFrame(spec: ActionSpec, status: Status): WorkFrame {
  let frames = standardFrames.get(spec);
  if (frames === undefined) standardFrames.set(spec, (frames = new Map<Status, WorkFrame>()));
  let frame = frames.get(status);
  if (frame === undefined) frames.set(status, (frame = deepFreeze(buildWorkFrame(status, spec.name, spec.workFrames[status]))));
  return frame;
}
