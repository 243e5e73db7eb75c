/**
 * Abort signals for decision deadlines, one per 10 ms slot, shared by every deadline in it.
 *
 * `AbortSignal.timeout` per decision cost the decision service about 40 µs of its event loop
 * per decision (bench/RESULTS.md, "Where the service's time goes"): the signal and its timer
 * when the decision starts, and, because the timer outlives a decision that finished in time,
 * a `TimeoutError` and an abort event seconds later that nobody listens to. With slots, a host
 * making thousands of decisions a second runs a hundred timers a second at most.
 *
 * A slot's signal aborts at the slot's end, so a deadline is noticed up to SLOT_MS late; its
 * reason is still a `TimeoutError`, which is how a deadline is told from a cancellation.
 */
import { setMaxListeners } from 'node:events';

const SLOT_MS = 10;

const slots = new Map<number, AbortSignal>();

/** A signal that aborts with a `TimeoutError` at `deadline` (ms since the epoch) or less than SLOT_MS after it. */
export function deadlineSignal(deadline: number): AbortSignal {
  const end = Math.ceil(deadline / SLOT_MS) * SLOT_MS;
  let signal = slots.get(end);
  if (signal === undefined) {
    const created = AbortSignal.timeout(Math.max(0, end - Date.now()));
    // Every decision of the slot waits on it: more than Node's default of 10 listeners is no leak.
    setMaxListeners(0, created);
    created.addEventListener('abort', () => slots.delete(end), { once: true });
    slots.set(end, created);
    signal = created;
  }
  return signal;
}
