/**
 * `cloud_llm` (seed 001): any endpoint speaking the OpenAI chat-completions protocol
 * (`POST {baseUrl}/chat/completions`), configured by environment or options. The model is
 * asked for one JSON object that satisfies the skill's output schema; the engine validates
 * whatever comes back, so nothing here trusts the reply. The call is aborted at the engine's
 * time limit, which is never above the SEC hard limit.
 */
import type { LlmCall, LlmExecutor, LlmReply } from './llm-executor.js';

export interface CloudLlmOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Upper bound on the reply's tokens (`max_tokens`). */
  readonly maxOutputTokens?: number;
  readonly id?: string;
}

/** The largest reply read: a skill's payload is a few hundred characters. */
const MAX_REPLY_BYTES = 256 * 1024;

/** `ADEC_LLM_URL`, `ADEC_LLM_MODEL`, `ADEC_LLM_API_KEY`; undefined when no URL is set. */
export function cloudLlmFromEnvironment(env: NodeJS.ProcessEnv = process.env): CloudLlmOptions | undefined {
  const baseUrl = env['ADEC_LLM_URL'];
  if (baseUrl === undefined || baseUrl === '') return undefined;
  return { baseUrl, model: env['ADEC_LLM_MODEL'] ?? 'gpt-4o-mini', ...(env['ADEC_LLM_API_KEY'] !== undefined && { apiKey: env['ADEC_LLM_API_KEY'] }) };
}

export function cloudLlmExecutor(options: CloudLlmOptions): LlmExecutor {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    id: options.id ?? `cloud_llm:${options.model}`,
    type: 'cloud_llm',
    isAvailable: () => true,
    async complete(call, signal): Promise<LlmReply> {
      try {
        const response = await fetch(url, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', ...(options.apiKey !== undefined && { authorization: `Bearer ${options.apiKey}` }) },
          body: JSON.stringify(chatRequest(options, call)),
        });
        const text = await readLimited(response);
        if (!response.ok) return { ok: false, message: `the model endpoint answered HTTP ${response.status}: ${text.slice(0, 200)}` };
        return replyOf(text);
      } catch (error) {
        return { ok: false, message: signal.aborted ? 'aborted at the time limit' : `the model endpoint could not be reached: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

function chatRequest(options: CloudLlmOptions, call: LlmCall) {
  const system = [
    `You write the \`payload\` of skill ${call.skillId}@${call.skillVersion}: one JSON object and nothing else.`,
    `It must satisfy this JSON Schema: ${JSON.stringify(call.outputSchema)}`,
    'The action has already been selected and cannot change: never name, rank, compare or recommend another action, and never mention scores.',
    `Input: ${JSON.stringify(call.input)}`,
  ].join('\n');
  return {
    model: options.model,
    temperature: 0,
    response_format: { type: 'json_object' },
    ...(options.maxOutputTokens !== undefined && { max_tokens: options.maxOutputTokens }),
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: call.prompt },
    ],
  };
}

function replyOf(body: string): LlmReply {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, message: 'the model endpoint answered with a body that is not JSON' };
  }
  const choice = (parsed as { choices?: { message?: { content?: unknown } }[] }).choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') return { ok: false, message: 'the model endpoint answered without `choices[0].message.content`' };
  const usage = (parsed as { usage?: { completion_tokens?: unknown } }).usage?.completion_tokens;
  return { ok: true, text: content, tokenCount: typeof usage === 'number' && Number.isInteger(usage) ? usage : null };
}

async function readLimited(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REPLY_BYTES) {
      await reader.cancel();
      throw new Error(`the reply is larger than ${MAX_REPLY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
