/**
 * Reading a bundle from a module store: never a throw, and a failure that may pass by itself
 * retried before the load gives up (SECURITY.md, "Loader and host faults": one transient I/O error once left a
 * module unloadable until the loader's backoff ran out).
 *
 * A failure is transient when the store could give no answer now: it threw or rejected, it
 * answered something that is not a result, or it says so with `MODULE_UNAVAILABLE` (the
 * directory store does for the system errors below). Such a read is tried again a few times
 * with short delays, and a load that still fails that way is not remembered: the next request
 * reads the store again. Every other failure is the store's answer about the bundle (not found,
 * not verifying…), which trying again at once would not change.
 */
import type { BundleFiles } from '../trust/bundle-files.js';
import { messageOf } from '../error-message.js';
import type { LoadError } from './module-loader.js';
import type { ModuleStore, WorldKey } from './module-store.js';

export type StoreRead = { readonly ok: true; readonly files: BundleFiles } | { readonly ok: false; readonly error: LoadError };

/**
 * System errors a read can meet that say nothing about the file: the device failed this time
 * (EIO), the process or the system ran out of descriptors (EMFILE, ENFILE), the call would have
 * blocked or was interrupted (EAGAIN, EINTR), the file is busy (EBUSY), a network file system
 * timed out (ETIMEDOUT).
 */
const TRANSIENT_SYSTEM_ERRORS: ReadonlySet<string> = new Set(['EIO', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR', 'ETIMEDOUT']);

export function isTransientSystemError(code: string | undefined): boolean {
  return code !== undefined && TRANSIENT_SYSTEM_ERRORS.has(code);
}

/** True for a load failure that may pass by itself: retried at once, never remembered. */
export function isTransientLoadError(error: LoadError): boolean {
  return error.code === 'MODULE_UNAVAILABLE';
}

/**
 * Reads of one load, and the delay before the second (doubling after): at most 30 ms of waiting
 * in all, small beside a decision's deadline of seconds, and enough to outlast a descriptor
 * briefly exhausted or a busy file.
 */
export const STORE_READ_ATTEMPTS = 3;
export const STORE_RETRY_DELAY_MS = 10;

/** `key`'s bundle files from `store`, reading again after a transient failure. */
export async function readFromStore(store: ModuleStore, key: WorldKey): Promise<StoreRead> {
  for (let attempt = 1; ; attempt++) {
    const read = await readOnce(store, key);
    if (read.ok || !isTransientLoadError(read.error) || attempt === STORE_READ_ATTEMPTS) return read;
    await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_DELAY_MS * 2 ** (attempt - 1)));
  }
}

async function readOnce(store: ModuleStore, key: WorldKey): Promise<StoreRead> {
  const world = `module ${key.org}/${key.domain}@${key.version}`;
  let read: unknown;
  try {
    read = await store.read({ org: key.org, domain: key.domain, version: key.version });
  } catch (error) {
    return { ok: false, error: { code: 'MODULE_UNAVAILABLE', message: `${world} could not be loaded: ${messageOf(error)}` } };
  }
  if (read === null || typeof read !== 'object' || typeof (read as { ok?: unknown }).ok !== 'boolean') {
    return { ok: false, error: { code: 'MODULE_UNAVAILABLE', message: `the module store answered ${world} with something that is not a result` } };
  }
  return read as StoreRead;
}
