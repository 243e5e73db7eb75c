/**
 * A local HTTP server speaking the OpenAI chat-completions protocol on loopback, for the
 * `cloud_llm` executor's tests: each request is recorded and answered by the test's handler
 * (a reply's content, a delay, an HTTP error or a broken body).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedChatRequest {
  readonly headers: IncomingMessage['headers'];
  readonly body: {
    readonly model: string;
    readonly messages: readonly { readonly role: string; readonly content: string }[];
    readonly response_format?: { readonly type: string };
    readonly temperature?: number;
  };
  /** Set when the client went away before the answer was sent (an aborted call). */
  aborted: boolean;
}

export type ChatAnswer =
  | { readonly content: string; readonly delayMs?: number; readonly completionTokens?: number }
  | { readonly status: number; readonly body: string; readonly delayMs?: number };

export interface ChatCompletionsServer {
  readonly baseUrl: string;
  readonly requests: RecordedChatRequest[];
  answer(handler: (request: RecordedChatRequest) => ChatAnswer): void;
  close(): Promise<void>;
}

/**
 * A model that follows the skill contract: `payload` in the output envelope of the skill the
 * request asks for (read from the input envelope in its system message, as a model would).
 */
export function envelopeAnswer(request: RecordedChatRequest, payload: unknown): ChatAnswer {
  const system = request.body.messages.find((message) => message.role === 'system')?.content ?? '';
  const inputLine = system.split('\n').find((line) => line.startsWith('Input: ')) ?? 'Input: {}';
  const input = JSON.parse(inputLine.slice('Input: '.length)) as { skill_config?: { skill_id?: string; skill_version?: string } };
  const metadata = { skill_id: input.skill_config?.skill_id, skill_version: input.skill_config?.skill_version, generated_at: new Date().toISOString() };
  return { content: JSON.stringify({ payload, metadata }) };
}

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const requests: RecordedChatRequest[] = [];
  let handler: (request: RecordedChatRequest) => ChatAnswer = () => ({ status: 500, body: 'no handler' });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const recorded: RecordedChatRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedChatRequest['body'], aborted: false };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.aborted = true;
      });
      const answer = handler(recorded);
      const send = () => {
        if ('content' in answer) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: `chatcmpl-${requests.length}`,
              object: 'chat.completion',
              model: recorded.body.model,
              choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer.content } }],
              usage: { prompt_tokens: 50, completion_tokens: answer.completionTokens ?? 12, total_tokens: 62 },
            }),
          );
        } else {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
        }
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    answer(next) {
      handler = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
