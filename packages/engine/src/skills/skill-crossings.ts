/**
 * Every call stages 6–8 make into the module's isolate (a skill's templates, prompt and
 * compiled invariants), in the order the cycle makes them. A crossing that failed for a reason
 * outside the module's code — out of time, out of memory, a sandbox that crashed — depends on
 * the machine at that moment, not on the inputs, so it is recorded (`faults`) as the model's
 * reply is: a replay answers that crossing with the recorded fault instead of running it, and
 * re-executes everything else. A failure of the code itself (`exception`) happens again by
 * itself and is not recorded.
 */
import type { LoadedModule } from '@adec/runtime';

export type SkillEntry = '__adec_skill_render' | '__adec_skill_prompt' | '__adec_skill_invariants';

export interface SandboxFault {
  /** The crossing's place among this cycle's skill crossings (0, 1, 2, …). */
  readonly index: number;
  readonly entry: SkillEntry;
  readonly skill: string;
  readonly kind: string;
  readonly message: string;
}

export type SkillCrossing = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly kind: string; readonly message: string };

/**
 * A replayed crossing that completed in the recorded decision ran within its limit then; the
 * replay gives it this much, so a replay on a busy machine does not fail where the decision did
 * not. A crossing that never ends still ends.
 */
export const REPLAY_TIME_LIMIT_MS = 1_000;

export class SkillCrossings {
  readonly #module: LoadedModule;
  readonly #recorded: ReadonlyMap<number, SandboxFault> | undefined;
  readonly #faults: SandboxFault[] = [];
  #next = 0;

  /** `recorded`: the faults of the decision being replayed; undefined for a live decision. */
  constructor(module: LoadedModule, recorded?: readonly SandboxFault[]) {
    this.#module = module;
    this.#recorded = recorded === undefined ? undefined : new Map(recorded.map((fault) => [fault.index, fault]));
  }

  /** The faults of this cycle so far, in order. */
  get faults(): readonly SandboxFault[] {
    return this.#faults;
  }

  async call(entry: SkillEntry, skill: string, inputJson: string, timeLimitMs: number): Promise<SkillCrossing> {
    const index = this.#next++;
    const recorded = this.#recorded?.get(index);
    if (recorded !== undefined && recorded.entry === entry && recorded.skill === skill) {
      this.#faults.push(recorded);
      return { ok: false, kind: recorded.kind, message: recorded.message };
    }
    const limit = this.#recorded === undefined ? timeLimitMs : Math.max(timeLimitMs, REPLAY_TIME_LIMIT_MS);
    const crossing = await this.#module.evaluator.call(entry, [skill, inputJson], limit);
    if (!crossing.ok && crossing.kind !== 'exception') this.#faults.push({ index, entry, skill, kind: crossing.kind, message: crossing.message });
    return crossing;
  }
}
