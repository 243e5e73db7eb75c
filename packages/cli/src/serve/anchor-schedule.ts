/**
 * `adec serve --anchors <file> --anchor-key <key>`: a signed anchor of every chain's head
 * (packages/audit/README.md "Anchors") appended to the file when the service starts and then
 * every `--anchor-interval-seconds`. The file is meant to be kept apart from the store (another
 * disk, a log shipper): `adec audit verify --anchors` then proves that no anchored record was
 * removed, truncated or rolled back.
 */
import { open } from 'node:fs/promises';
import { signedAnchors, type AnchorSigner, type AuditStore } from '@adec/audit';
import type { DecisionHost } from '@adec/server';

/** The service's logger (JSON lines on standard output). */
export type ServiceLog = DecisionHost['app']['log'];

export interface AnchorSchedule {
  /** Stops the schedule (an anchor being written is finished). */
  stop(): Promise<void>;
}

/** Appends anchors of `store`'s chains to `file` now and every `intervalSeconds`; each failure is logged, never fatal. */
export function anchorEvery(store: AuditStore, signer: AnchorSigner, file: string, intervalSeconds: number, log: ServiceLog): AnchorSchedule {
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    writing = writing.then(() => appendAnchors(store, signer, file, log));
  };
  write();
  const timer = setInterval(write, intervalSeconds * 1000).unref();
  return {
    stop: () => {
      clearInterval(timer);
      return writing;
    },
  };
}

async function appendAnchors(store: AuditStore, signer: AnchorSigner, file: string, log: ServiceLog): Promise<void> {
  const anchors = await signedAnchors(store, signer);
  if (!anchors.ok) {
    log.error({ code: anchors.code }, `the audit chains could not be anchored: ${anchors.message}`);
    return;
  }
  if (anchors.value.length === 0) return;
  try {
    const handle = await open(file, 'a', 0o644);
    try {
      await handle.appendFile(anchors.value.map((anchor) => `${JSON.stringify(anchor)}\n`).join(''));
      // An anchor is evidence only once it is on disk.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    log.info({ anchors: anchors.value.length }, 'audit chains anchored');
  } catch (error) {
    log.error({ code: 'ANCHORS_NOT_WRITTEN' }, `the audit chains' anchors could not be written: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}`);
  }
}
