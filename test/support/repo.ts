/**
 * Shared helpers for the end-to-end tests under `test/`: where the repository is, and how to
 * read a world the way `adec check` does (every `.adec` file below a directory, sorted by
 * path, named by its repo-relative display path so rendered diagnostics are stable).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorldSources } from '@adec/compiler';

/** The repository root (this file lives in `test/support/`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** An absolute path from a repo-relative one: `repoPath('examples', 'benefits')`. */
export function repoPath(...segments: string[]): string {
  return join(REPO_ROOT, ...segments);
}

/** The repo-relative display path of an absolute path, with `/` on every platform. */
export function displayPath(absolute: string): string {
  return relative(REPO_ROOT, absolute).split(sep).join('/');
}

/**
 * Reads a world from a directory (recursively) or a single `.adec` file, synchronously, with
 * files in byte order of their paths, exactly as `loadWorld` orders them.
 */
export function loadWorldFromDir(pathFromRepo: string): WorldSources {
  const absolute = repoPath(pathFromRepo);
  const files = statSync(absolute).isDirectory() ? listAdecFiles(absolute) : [absolute];
  return {
    root: displayPath(statSync(absolute).isDirectory() ? absolute : dirname(absolute)),
    files: files.map((file) => ({ path: displayPath(file), text: readFileSync(file, 'utf8') })),
  };
}

/** Every `.adec` file below `dir`, absolute, in byte order of path. */
export function listAdecFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...listAdecFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.adec')) found.push(path);
  }
  return found.sort(byteOrder);
}

export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A `SourceLookup` for `renderDiagnostics` over the files of one world. */
export function sourceLookup(sources: WorldSources): (file: string) => string | undefined {
  const byPath = new Map(sources.files.map((f) => [f.path, f.text]));
  return (file) => byPath.get(file);
}
