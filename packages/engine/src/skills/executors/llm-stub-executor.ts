/**
 * `llm_stub` (docs/spec/skill-contract.md): a scripted model for tests and offline development. Each call gets
 * the script's answer for it: a payload (answered in a well-formed output envelope for the skill
 * called), raw text (any reply, well-formed or not), an error, or a delay, so every path of
 * stages 6–8 can be driven without a network.
 */
import type { LlmCall, LlmExecutor, LlmReply } from './llm-executor.js';

export type ScriptedAnswer =
  | { readonly payload: unknown; readonly delayMs?: number; readonly tokenCount?: number }
  | { readonly text: string; readonly delayMs?: number; readonly tokenCount?: number }
  | { readonly error: string; readonly delayMs?: number };

export type LlmScript = (call: LlmCall) => ScriptedAnswer;

export function llmStubExecutor(script: LlmScript, options: { readonly id?: string; readonly available?: () => boolean } = {}): LlmExecutor {
  return {
    id: options.id ?? 'llm_stub',
    type: 'llm_stub',
    isAvailable: options.available ?? (() => true),
    async complete(call, signal): Promise<LlmReply> {
      let answer: ScriptedAnswer;
      try {
        answer = script(call);
      } catch (error) {
        return { ok: false, message: `the script failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (answer.delayMs !== undefined && answer.delayMs > 0) await delay(answer.delayMs, signal);
      if (signal.aborted) return { ok: false, message: 'aborted' };
      if ('error' in answer) return { ok: false, message: answer.error };
      return { ok: true, text: 'payload' in answer ? envelopeText(call, answer.payload) : answer.text, tokenCount: answer.tokenCount ?? null };
    },
  };
}

/** `payload` in the output envelope the contract asks of every executor, for the skill called. */
export function envelopeText(call: Pick<LlmCall, 'skillId' | 'skillVersion'>, payload: unknown): string {
  return JSON.stringify({ payload, metadata: { skill_id: call.skillId, skill_version: call.skillVersion, generated_at: new Date().toISOString() } });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
