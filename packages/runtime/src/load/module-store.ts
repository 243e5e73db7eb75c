/**
 * Where bundles come from. The default store is a directory laid out by routing key:
 *
 *   <root>/<org>/<domain>/<version>/{manifest.json, bundle.js, signature.json, approval.json}
 *
 * One bundle directory per world version (a bundle holds every action of its world). The
 * segments come from requests, so each must be a plain name: a key that could climb out of the
 * root (`..`, `/`, a leading dot) is refused before the file system is touched. Each file is
 * read as a regular file, never through a link, up to its size limit (trust/bundle-files.ts).
 * A system error that may pass (EIO, EMFILE…: store-read.ts) is `MODULE_UNAVAILABLE`, which the
 * loader retries; a file that is missing or cannot be read for good is `MODULE_NOT_FOUND`.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readBundleFiles, type BundleFileLimits, type BundleFiles } from '../trust/bundle-files.js';
import type { LoadError, RoutingKey } from './module-loader.js';
import { isTransientSystemError } from './store-read.js';

export type WorldKey = Omit<RoutingKey, 'action'>;

export interface ModuleStore {
  read(key: WorldKey): Promise<{ readonly ok: true; readonly files: BundleFiles } | { readonly ok: false; readonly error: LoadError }>;
  /** Every world version the store holds (for a host that loads them all at start). */
  list?(): Promise<readonly WorldKey[]>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

export interface DirectoryModuleStoreOptions {
  /** The most bytes each bundle file may hold (default DEFAULT_BUNDLE_FILE_LIMITS: manifest 16 MiB, bundle 64 MiB, signature and approval 64 KiB). */
  readonly limits?: Partial<BundleFileLimits>;
}

export class DirectoryModuleStore implements ModuleStore {
  constructor(
    readonly root: string,
    private readonly options: DirectoryModuleStoreOptions = {},
  ) {}

  /** The directory a world version lives in, or undefined when the key is not a plain path. */
  directoryOf(key: Omit<RoutingKey, 'action'>): string | undefined {
    const segments = [key.org, key.domain, key.version];
    return segments.every((segment) => SEGMENT.test(segment) && !segment.includes('..')) ? join(this.root, ...segments) : undefined;
  }

  /** The `<org>/<domain>/<version>` directories under the root whose names are plain segments. */
  async list(): Promise<readonly WorldKey[]> {
    const below = async (dir: string): Promise<string[]> => {
      try {
        const entries = await readdir(dir, { withFileTypes: true });
        return entries.filter((entry) => entry.isDirectory() && SEGMENT.test(entry.name) && !entry.name.includes('..')).map((entry) => entry.name).sort();
      } catch {
        return [];
      }
    };
    const worlds: WorldKey[] = [];
    for (const org of await below(this.root)) {
      for (const domain of await below(join(this.root, org))) {
        for (const version of await below(join(this.root, org, domain))) worlds.push({ org, domain, version });
      }
    }
    return worlds;
  }

  async read(key: Omit<RoutingKey, 'action'>) {
    const dir = this.directoryOf(key);
    const name = `${key.org}/${key.domain}@${key.version}`;
    if (dir === undefined) return { ok: false as const, error: { code: 'MODULE_NOT_FOUND' as const, message: `no module ${JSON.stringify(name)}: org, domain and version must be plain names` } };
    const read = await readBundleFiles(dir, process.cwd(), this.options.limits);
    if (read.ok) return read;
    // Named without the path: the message may reach a caller (the failure names the file and its directory).
    if (isTransientSystemError(read.systemCode)) return { ok: false as const, error: { code: 'MODULE_UNAVAILABLE' as const, message: `module ${name} could not be read from the store now (${read.systemCode})` } };
    const missing = read.failure.code === 'BUNDLE_FILE_MISSING';
    return { ok: false as const, error: missing ? { code: 'MODULE_NOT_FOUND' as const, message: `no module ${name} in the store (${read.failure.message})` } : read.failure };
  }
}
