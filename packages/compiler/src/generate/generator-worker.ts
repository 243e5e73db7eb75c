/**
 * The generator worker thread: it loads ts-morph and warms up the TypeScript checker as soon
 * as a build starts, in parallel with parsing and checking on the main thread, then generates
 * and verifies the module of the checked world it is sent. See module-generator.ts.
 */
import { parentPort } from 'node:worker_threads';
import { generateAndVerify } from './generate-and-verify.js';
import type { GenerateRequest, GenerateResponse } from './module-generator.js';
import { warmUpTypeChecker } from './warm-up.js';

const port = parentPort;
if (port === null) throw new Error('generator-worker.js must run as a worker thread');

port.on('message', (request: GenerateRequest) => {
  let response: GenerateResponse;
  try {
    response = { ok: true, module: generateAndVerify(request.world, request.provenance) };
  } catch (error) {
    response = { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(response);
});
warmUpTypeChecker();
