/**
 * Load on a running `adec serve`: loops deciding over keep-alive connections until stopped,
 * each decision with its own request id, keeping every decision answered 200 as it was
 * answered; and the check that each of them is in the audit store exactly so. For the tests
 * that crash, stop or kill part of the service under load.
 */
import { expect } from 'vitest';
import { addDependent } from './service-fixture.js';

/** Contexts of every status the benefits world gives. */
export const LOAD_CONTEXTS = [
  { relationship: 'child', dependent_age: 10, documents: ['birth_certificate'] },
  { relationship: 'child', dependent_age: 27, full_time_student: true, documents: ['birth_certificate'] },
  { relationship: 'stepchild', dependent_age: 8 },
  { relationship: 'child', dependent_age: 27, documents: ['birth_certificate'] },
];

export interface Answered {
  readonly id: string;
  readonly body: string;
  /** When the answer arrived (ms since the epoch). */
  readonly at: number;
}

/** `loops` loops deciding until `stop()`; the decisions answered 200, and how many requests failed. */
export function decideLoad(url: string, token: string, loops: number, prefix: string) {
  const answered: Answered[] = [];
  let failed = 0;
  let stopped = false;
  let sequence = 0;
  const running = Array.from({ length: loops }, async () => {
    while (!stopped) {
      const id = `${prefix}-${sequence++}`;
      try {
        const response = await fetch(`${url}/v1/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(addDependent(LOAD_CONTEXTS[sequence % LOAD_CONTEXTS.length]!, { request_id: id })),
        });
        const body = await response.text();
        if (response.status === 200) answered.push({ id, body, at: Date.now() });
        else failed += 1;
      } catch {
        failed += 1;
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by stop() while this loop awaits, which TypeScript's narrowing does not see
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  });
  return {
    answered,
    failures: () => failed,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Every decision in `answered` is stored, its response exactly as it was answered. */
export async function expectStored(url: string, token: string, answered: readonly Answered[]): Promise<void> {
  for (const { id, body } of answered) {
    const stored = await fetch(`${url}/v1/decisions/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(stored.status, id).toBe(200);
    expect(((await stored.json()) as { response: unknown }).response).toEqual(JSON.parse(body));
  }
}
