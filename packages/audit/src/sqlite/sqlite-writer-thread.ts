/**
 * The worker thread that commits a SQLite store's appends (see writer-thread.ts). It owns its
 * own connection to the file, so the insert and the fsync of a batch run beside the event loop
 * that serves requests, not on it. Each message is one group commit; the answer carries only
 * what the main thread does not already have (seq, time and hashes), not the payloads back.
 * User memory writes come the same way, in group commits of their own (sqlite-user-memory.ts
 * says why).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describeError } from '../store-options.js';
import { SqliteChainWriter } from './sqlite-chain-writer.js';
import { SqliteMemoryWriter } from './sqlite-memory-writer.js';
import type { WriterRequest, WriterResponse } from './writer-protocol.js';
import { whileLockedTryAgain } from './write-lock-wait.js';

const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
// No busy handler of SQLite's: a locked file is waited for by whileLockedTryAgain, in much
// shorter steps (write-lock-wait.ts says why).
const db = new Database(path, { timeout: 0 });
db.pragma('synchronous = FULL');
const writer = new SqliteChainWriter(db);
const memory = new SqliteMemoryWriter(db);

parentPort!.on('message', (request: WriterRequest) => {
  if (request.close) {
    db.close();
    parentPort!.close();
    return;
  }
  let response: WriterResponse;
  try {
    response = 'memory' in request
      ? { id: request.id, written: whileLockedTryAgain(() => memory.write(request.memory), busyTimeoutMs) }
      : { id: request.id, results: whileLockedTryAgain(() => writer.append(request.entries), busyTimeoutMs) };
  } catch (error) {
    response = { id: request.id, error: describeError(error) };
  }
  parentPort!.postMessage(response);
});
