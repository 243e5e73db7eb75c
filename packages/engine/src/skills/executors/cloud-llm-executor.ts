/**
 * `cloud_llm` (docs/spec/skill-contract.md): any endpoint speaking the OpenAI chat-completions protocol
 * (`POST {baseUrl}/chat/completions`), configured by environment or options. The model is
 * asked for the skill's output envelope, one JSON object `{ payload, metadata }` whose payload
 * satisfies the skill's output schema; the engine validates whatever comes back, so nothing here
 * trusts the reply. The call is aborted at the engine's
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
  // A variable set to nothing (`ADEC_LLM_API_KEY=` in a service file) is not set: an empty
  // key would send `Bearer ` and an empty model would be refused by every endpoint.
  const setting = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const baseUrl = setting('ADEC_LLM_URL');
  if (baseUrl === undefined) return undefined;
  const apiKey = setting('ADEC_LLM_API_KEY');
  return { baseUrl, model: setting('ADEC_LLM_MODEL') ?? 'gpt-4o-mini', ...(apiKey !== undefined && { apiKey }) };
}

export function cloudLlmExecutor(options: CloudLlmOptions): LlmExecutor {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    id: options.id ?? `cloud_llm:${options.model}`,
    type: 'cloud_llm',
    isAvailable: () => true,
    async complete(call, signal): Promise<LlmReply> {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', ...(options.apiKey !== undefined && { authorization: `Bearer ${options.apiKey}` }) },
          body: JSON.stringify(chatRequest(options, call)),
        });
      } catch (error) {
        return { ok: false, message: signal.aborted ? 'aborted at the time limit' : `the model endpoint could not be reached: ${failureOf(error)}` };
      }
      const body = await readLimited(response);
      if (!body.ok) return { ok: false, message: signal.aborted ? 'aborted at the time limit' : body.message };
      if (!response.ok) return { ok: false, message: `the model endpoint answered HTTP ${response.status}: ${body.text.slice(0, 200)}` };
      return replyOf(body.text);
    },
  };
}

function chatRequest(options: CloudLlmOptions, call: LlmCall) {
  const metadata = { skill_id: call.skillId, skill_version: call.skillVersion, generated_at: new Date().toISOString() };
  const system = [
    `You are skill ${call.skillId}@${call.skillVersion}. Answer with one JSON object and nothing else: {"payload": …, "metadata": ${JSON.stringify(metadata)}}.`,
    `The payload must satisfy this JSON Schema: ${JSON.stringify(call.outputSchema)}`,
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
  // Any JSON may come back (`null`, a list, a number): read it as an unknown shape.
  const reply = (parsed ?? {}) as { choices?: { message?: { content?: unknown } }[]; usage?: { completion_tokens?: unknown } };
  const content = Array.isArray(reply.choices) ? reply.choices[0]?.message?.content : undefined;
  if (typeof content !== 'string') return { ok: false, message: 'the model endpoint answered without `choices[0].message.content`' };
  const usage = reply.usage?.completion_tokens;
  return { ok: true, text: content, tokenCount: typeof usage === 'number' && Number.isInteger(usage) ? usage : null };
}

/** The body's text, read no further than MAX_REPLY_BYTES. */
async function readLimited(response: Response): Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }> {
  // A fetch body's chunks are bytes (the Fetch standard); undici's types leave them `any`.
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (reader === undefined) return { ok: true, text: '' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_REPLY_BYTES) {
        await reader.cancel();
        return { ok: false, message: `the model endpoint answered with a body larger than ${MAX_REPLY_BYTES} bytes` };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { ok: false, message: `the model endpoint's answer could not be read: ${failureOf(error)}` };
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

/** An error's message with its cause's: fetch says only "fetch failed", its cause says why (ECONNREFUSED …). */
function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || cause === '' ? error.message : `${error.message} (${cause})`;
}
