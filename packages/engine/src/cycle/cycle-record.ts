/**
 * The decision envelope (docs/spec/selection.md 2.2): what one cycle has established so far,
 * carried from stage to stage and finally written out as the trace (trace-artifacts.ts) and
 * the response (decision-response.ts).
 */
import type { UserState as UserStateSchema, Wire } from '@adec/contracts';
import type { CandidateAction, NormalizedRequest } from '../selection-request.js';
import type { Selection } from '../selection-trace.js';
import type { SkillExecution } from '../skills/execute-skill.js';
import type { FallbackStage } from '../skills/fallback.js';
import type { ResolvedSkill } from '../skills/resolve-skill.js';
import type { SandboxFault } from '../skills/skill-crossings.js';
import type { ValidationResult } from '../skills/validate-output.js';
import type { CycleRequest, MemoryInput } from './run-cycle.js';

export type UserState = Wire<typeof UserStateSchema>;

export interface CycleRecord {
  readonly decisionId: string;
  readonly requestId: string | null;
  readonly timestamp: string;
  readonly rawRequest: CycleRequest;
  readonly inputHash: string;
  readonly memory: MemoryInput;
  readonly selection: Selection;
  readonly normalized: NormalizedRequest;
  readonly userState: UserState;
  /** Milliseconds after the start of the cycle when stage 4 locked the selection. */
  readonly lockedAfterMs: number;
  readonly ingestMs: number;
}

export interface SkillStages {
  readonly locked: CandidateAction;
  readonly resolved: ResolvedSkill;
  readonly execution: SkillExecution | null;
  readonly validation: ValidationResult | null;
  readonly fallback: FallbackStage | null;
  /** Crossings that failed for the machine's reasons (time, memory, a crash): replayed as recorded. */
  readonly sandboxFaults: readonly SandboxFault[];
  readonly durations: { readonly resolve_skills: number; readonly fallback: number };
}
