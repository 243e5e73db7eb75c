/**
 * The benign corpus (packages/engine/test/sec-corpus/benign-rationales.ts) as the decision service
 * serves it: every entry is a `POST /v1/select` over real HTTP on loopback, on the fitness
 * example and the SEC lab world, with the model reached as `cloud_llm` on a scripted
 * OpenAI-compatible chat-completions server on loopback that answers the entry's reply. Every
 * answer must say what the library says (packages/engine/test/benign-corpus.test.ts): the entry's action
 * selected, the reply used as written, validation passed, no fallback. The rate is printed; a
 * failure lists each failing entry with the checks and failure ids of its stored trace.
 *
 * The SEC lab's LLM skill has 100 ms, which a loopback round trip can miss on a loaded
 * two-core machine (packages/engine/test/cloud-llm.test.ts measured up to 160 ms), so the lab is
 * published with note_writer at the SEC hard limit (500 ms), as cloud-llm.test.ts does; the
 * fitness example is served as written (300 ms). An entry whose model call still times out is
 * asked again (twice at most, counted in the output): a timeout says nothing about the text.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { cloudLlmExecutor, type DecisionResponse, type ValidationResult } from '@adec/engine';
import { envelopeAnswer, startChatCompletionsServer, type ChatCompletionsServer } from '../../../test/support/chat-completions-server.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';
import { asTestBundle, buildFixture, publish, type TestBundle } from '../../../test/support/runtime.js';
import { BENIGN_CASES, benignProblems, passRate, WORLD_DIRS, WORLD_HEADERS, type BenignCase } from '../../engine/test/sec-corpus/benign-cases.js';
import { jsonObject, optionalAt, type JsonObject } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

/** note_writer's limit, widened to the SEC hard limit in the lab the service is given. */
const LAB_WIDENED: readonly [string, string] = ['timeout     100ms hard_limit 500ms', 'timeout     500ms hard_limit 500ms'];
const RETRIES_ON_TIMEOUT = 2;

let chat: ChatCompletionsServer;
let service: ServiceFixture;

async function roomyLab(): Promise<TestBundle> {
  const sources = loadWorldFromDir(WORLD_DIRS['sec-lab']);
  const [limit, widened] = LAB_WIDENED;
  if (!sources.files.some((file) => file.text.includes(limit))) throw new Error(`${WORLD_DIRS['sec-lab']} no longer declares \`${limit}\`: update LAB_WIDENED`);
  const built = await buildWorld({ ...sources, files: sources.files.map((file) => ({ ...file, text: file.text.replace(limit, widened) })) });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
  return asTestBundle(built.artifacts);
}

beforeAll(async () => {
  const [fitness, lab] = await Promise.all([buildFixture(WORLD_DIRS.fitness).then(asTestBundle), roomyLab()]);
  chat = await startChatCompletionsServer();
  const model = cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'corpus-model', apiKey: 'corpus-key' });
  service = await startService({ executors: [model] }, (modules, keys) => [fitness, lab].forEach((bundle) => publish(bundle, modules, keys)));
  // The first call of a process opens the connection to the model and compiles the path
  // through each isolate: one selection per world first, so that the entries measure the text.
  for (const world of ['fitness', 'sec-lab'] as const) await select(BENIGN_CASES.find((benign) => benign.world === world)!);
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await chat?.close();
});

async function select(benign: BenignCase): Promise<{ status: number; body: JsonObject }> {
  chat.answer((request) => envelopeAnswer(request, benign.reply));
  const response = await service.post('/v1/select', { ...WORLD_HEADERS[benign.world], scenario: benign.scenario, signals: benign.signals, actions: benign.actions });
  return { status: response.status, body: await jsonObject(response) };
}

/** The stage 7 result of a stored decision, for the failure message. */
async function storedValidation(decisionId: string): Promise<ValidationResult | null> {
  const stored = await service.get(`/v1/decisions/${decisionId}`);
  if (stored.status !== 200) return null;
  const record = (await stored.json()) as { trace?: { stages?: { validate_output?: ValidationResult | null } } };
  return record.trace?.stages?.validate_output ?? null;
}

test('every benign reply passes every check of stage 7 over POST /v1/select, with cloud_llm on a loopback model', async () => {
  const failures: string[] = [];
  let timeouts = 0;
  for (const benign of BENIGN_CASES) {
    let answer = await select(benign);
    for (let retry = 0; retry < RETRIES_ON_TIMEOUT && optionalAt(answer.body, 'execution', 'fallback_reason_code') === 'timeout'; retry++) {
      timeouts++;
      answer = await select(benign);
    }
    if (answer.status !== 200) {
      failures.push(`${benign.id} ${benign.label}: HTTP ${answer.status} ${JSON.stringify(answer.body['error'] ?? answer.body)}`);
      continue;
    }
    const response = answer.body as unknown as DecisionResponse;
    if (benignProblems(benign, response, null) === null) continue;
    failures.push(benignProblems(benign, response, await storedValidation(response.decision.decision_id))!);
  }
  const passed = BENIGN_CASES.length - failures.length;
  console.log(`${passRate('benign corpus (POST /v1/select)', passed, BENIGN_CASES.length)}${timeouts > 0 ? `; ${timeouts} model call(s) timed out and were asked again` : ''}`);
  expect(failures.length, `${failures.length} benign replies were refused:\n${failures.join('\n')}\n`).toBe(0);
});
