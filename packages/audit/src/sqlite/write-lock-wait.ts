/**
 * Waiting for SQLite's write lock when another process holds it (`adec serve --workers N`:
 * every worker writes its own records to one file, each commit a `BEGIN IMMEDIATE`; and the
 * workers open a new file together, where switching it to WAL is a lock SQLite does not wait for).
 *
 * SQLite's own busy handler waits 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms between
 * tries: tuned for rare contention, it turns a lock held for a 5 ms commit into waits of 50 to
 * 250 ms under steady contention (measured with two workers at 16 connections: 25 of 4,844
 * commits took 50–250 ms, against none over 50 ms with one worker; bench/RESULTS.md "Worker
 * processes"). The writer thread is a thread of its own, so it can afford to try again much
 * sooner: every 0.1 ms at first, backing off to 2 ms, until the busy timeout is spent. A failed
 * `BEGIN IMMEDIATE` has done nothing, so trying the whole transaction again is safe.
 */

/** The first wait between tries, and the longest. */
const FIRST_WAIT_MS = 0.1;
const LONGEST_WAIT_MS = 2;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Runs `write` (one transaction), trying again while the file is locked by another connection, for up to `timeoutMs`. */
export function whileLockedTryAgain<T>(write: () => T, timeoutMs: number): T {
  const deadline = performance.now() + timeoutMs;
  let wait = FIRST_WAIT_MS;
  for (;;) {
    try {
      return write();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    }
    Atomics.wait(sleeper, 0, 0, wait);
    wait = Math.min(LONGEST_WAIT_MS, wait * 2);
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
