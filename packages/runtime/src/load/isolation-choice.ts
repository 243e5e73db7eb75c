/**
 * Where a module's predicates run, and why (SECURITY.md "Isolation"). A module runs in this
 * process only when nothing in it can be anything but what the compiler makes of a world: an
 * operator rebuilt it byte for byte from its sources before approving it (`rebuilt_by` in the
 * approval), and this host's verifier found only what the code generator emits
 * (generated-code/). Such code cannot make V8 abort the process, the one threat a sandbox
 * process exists for; any other module runs in a sandbox process.
 */
import type { ApprovalCompiler } from '../trust/messages.js';
import type { GeneratedCodeVerdict } from './generated-code/verify-generated-code.js';

/**
 * The host's setting. `auto` (default): in process when rebuilt and verified, else in a sandbox
 * process. `process` or `in-process`: every module there, whatever it is.
 */
export type Isolation = 'auto' | 'process' | 'in-process';

/** Where one module runs. */
export const ISOLATION_MODES = ['in-process', 'process'] as const;
export type IsolationMode = (typeof ISOLATION_MODES)[number];

/**
 * Why it runs there:
 * - `CONFIGURED`: the host's setting says so for every module;
 * - `REBUILT_AND_VERIFIED`: approved after a byte-identical rebuild, and its code verified;
 * - `NOT_REBUILT`: no approval says it was rebuilt (approved without a rebuild, or not approved);
 * - `CODE_REFUSED`: rebuilt, but the verifier refused its code (`detail` says where and why);
 * - `VERIFYING`: rebuilt, its code being verified; it moves in process if the verifier accepts it.
 */
export const ISOLATION_REASONS = ['CONFIGURED', 'REBUILT_AND_VERIFIED', 'NOT_REBUILT', 'CODE_REFUSED', 'VERIFYING'] as const;
export type IsolationReason = (typeof ISOLATION_REASONS)[number];

export interface IsolationChoice {
  readonly mode: IsolationMode;
  readonly reason: IsolationReason;
  /** For `CODE_REFUSED`: the verifier's problem, line and column. */
  readonly detail?: string;
}

/** What the choice is made from. */
export interface IsolationFacts {
  readonly configured: Isolation;
  /** The compiler that rebuilt the module for its approval, when the approval says so. */
  readonly rebuiltBy: ApprovalCompiler | undefined;
  /** The verifier's verdict on the module's code; undefined while it is not known yet. */
  readonly verdict: GeneratedCodeVerdict | undefined;
}

export function chooseIsolation({ configured, rebuiltBy, verdict }: IsolationFacts): IsolationChoice {
  if (configured !== 'auto') return { mode: configured, reason: 'CONFIGURED' };
  if (rebuiltBy === undefined) return { mode: 'process', reason: 'NOT_REBUILT' };
  if (verdict === undefined) return { mode: 'process', reason: 'VERIFYING' };
  if (!verdict.ok) return { mode: 'process', reason: 'CODE_REFUSED', detail: `${verdict.problem} (bundle.js line ${verdict.line}, column ${verdict.column})` };
  return { mode: 'in-process', reason: 'REBUILT_AND_VERIFIED' };
}
