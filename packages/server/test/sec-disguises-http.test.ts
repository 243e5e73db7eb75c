/**
 * The disguise generator of packages/engine/test/sec-disguises.test.ts through the decision service:
 * `POST /v1/select` on the SEC lab world, the model a scripted OpenAI-compatible
 * chat-completions server on loopback reached by `cloud_llm`. Every disguised violation must
 * be answered with the fallback, flagged, and its stored trace must name the rule that caught
 * it (docs/skill-text.md).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildWorld } from '@adec/compiler';
import { cloudLlmExecutor } from '@adec/engine';
import { envelopeAnswer, startChatCompletionsServer, type ChatCompletionsServer } from '../../../test/support/chat-completions-server.js';
import { loadWorldFromDir } from '../../../test/support/repo.js';
import { asTestBundle, publish } from '../../../test/support/runtime.js';
import { LAB_CANDIDATES, LAB_SIGNALS, SELECTED, VALID_REPLY, labVariants } from '../../engine/test/sec-disguises/lab-protected.js';
import { at, jsonObject, objectAt, optionalAt, stringAt } from './json-body.js';
import { startService, type ServiceFixture } from './service-fixture.js';

const LAB = { domain: 'sec.lab', world_model_version: '1.0.0', scenario: 'lab_pick' };

let chat: ChatCompletionsServer;
let service: ServiceFixture;

beforeAll(async () => {
  chat = await startChatCompletionsServer();
  // The lab's model gets the SEC hard limit (500 ms), so a loaded machine's round trip through
  // loopback never turns a caught reply into a timeout (as in packages/engine/test/cloud-llm.test.ts).
  const sources = loadWorldFromDir('packages/engine/test/worlds/sec-lab');
  const files = sources.files.map((file) => ({ ...file, text: file.text.replace('timeout     100ms hard_limit 500ms', 'timeout     500ms hard_limit 500ms') }));
  const built = await buildWorld({ ...sources, files });
  if (built.artifacts === undefined) throw new Error(built.diagnostics.map((d) => d.message).join('; '));
  const lab = asTestBundle(built.artifacts);
  service = await startService({ executors: [cloudLlmExecutor({ baseUrl: chat.baseUrl, model: 'lab-model', apiKey: 'lab-key' })] }, (modules, keys) => publish(lab, modules, keys));
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await service?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined when the setup hook failed
  await chat?.close();
});

async function selectWith(text: string) {
  chat.answer((request) => envelopeAnswer(request, { ...VALID_REPLY, text }));
  const answered = await service.post('/v1/select', { ...LAB, signals: LAB_SIGNALS, actions: LAB_CANDIDATES });
  const body = await jsonObject(answered);
  if (answered.status !== 200) throw new Error(`${answered.status}: ${JSON.stringify(body)}`);
  const stored = await jsonObject(await service.get(`/v1/decisions/${stringAt(body, 'decision', 'decision_id')}`));
  return { body, failures: (optionalAt(objectAt(stored, 'trace', 'stages'), 'validate_output', 'output', 'ValidationResult', 'failures') ?? []) as { id: string }[] };
}

test('the reply the variants are built on is used as written', async () => {
  const { body } = await selectWith(VALID_REPLY.text);
  expect(body['decision']).toMatchObject({ selected_action: SELECTED.action_id, payload: VALID_REPLY });
  expect(body['execution']).toMatchObject({ executor_id: 'cloud_llm', executor_instance_id: 'cloud_llm:lab-model', validation_status: 'passed', fallback_used: false });
});

test('every disguised violation is refused over HTTP: the fallback answers, flagged, and the stored trace names the rule', async () => {
  const variants = labVariants();
  const missed: string[] = [];
  for (const variant of variants) {
    const { body, failures } = await selectWith(variant.text);
    const flagged = at(body, 'execution', 'fallback_used') === true && JSON.stringify(at(body, 'degradations')).includes('"stage":"validate_output"') && at(body, 'decision', 'selected_action') === SELECTED.action_id;
    if (!flagged || !failures.some((failure) => variant.protected.caughtBy.includes(failure.id))) {
      missed.push(`${JSON.stringify(variant.protected.phrase)} by ${variant.disguise}: ${failures.map((f) => f.id).join(', ') || 'no failure'}`);
    }
  }
  const caught = variants.length - missed.length;
  console.log(`disguised violations caught over HTTP: ${caught}/${variants.length} (${((100 * caught) / variants.length).toFixed(1)}%)`);
  expect(missed).toEqual([]);
}, 600_000);
