/**
 * The worker thread that verifies bundles' code (code-verifier.ts): parsing a large bundle takes
 * tens to hundreds of milliseconds, which must not stop the host's decisions.
 */
import { parentPort } from 'node:worker_threads';
import { verifyGeneratedCode } from './generated-code/verify-generated-code.js';
import type { VerifyRequest, VerifyResponse } from './code-verifier.js';

parentPort?.on('message', ({ id, source }: VerifyRequest) => {
  let response: VerifyResponse;
  try {
    response = { id, verdict: verifyGeneratedCode(source) };
  } catch (error) {
    // verifyGeneratedCode returns its refusals; a throw is a bug in it, and refuses the code.
    response = { id, verdict: { ok: false, problem: `the verifier failed: ${error instanceof Error ? error.message : String(error)}`, line: 1, column: 1 } };
  }
  parentPort?.postMessage(response);
});
