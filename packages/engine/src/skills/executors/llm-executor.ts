/**
 * The executor interface of docs/spec/skill-contract.md §8 for skills that need a model. The engine owns everything
 * around a call: it renders the prompt, builds the input envelope, enforces the time limit
 * (an executor that ignores its abort signal is still given up at the limit), parses and
 * validates the reply. An executor only turns one call into the model's text.
 */
import type { ValueSchema } from '@adec/abi';
import type { SkillInput } from '../skill-input.js';

export type LlmExecutorType = 'llm_stub' | 'cloud_llm';

export interface LlmCall {
  readonly skillId: string;
  readonly skillVersion: string;
  /** The skill's prompt, rendered in the isolate from the input envelope. */
  readonly prompt: string;
  readonly input: SkillInput;
  /** The payload's JSON Schema: the reply must be one JSON object that satisfies it. */
  readonly outputSchema: ValueSchema;
  readonly timeoutMs: number;
}

export type LlmReply =
  | { readonly ok: true; readonly text: string; readonly tokenCount: number | null }
  | { readonly ok: false; readonly message: string };

export interface LlmExecutor {
  /** Recorded in the trace as `executor_id`. */
  readonly id: string;
  readonly type: LlmExecutorType;
  /** Whether a call could be made now (configured, not known to be down). */
  isAvailable(): boolean;
  /** Never throws: a failed call is `{ ok: false }`. `signal` aborts at the time limit. */
  complete(call: LlmCall, signal: AbortSignal): Promise<LlmReply>;
}
