/**
 * The `.adec` files of a world directory on disk, as `adec check` reads them
 * (compiler/src/sources/load-world.ts): every file below the directory, in byte order of
 * the relative path. An editor may open a file anywhere, so the listing is bounded: it
 * skips `node_modules` and hidden directories and stops at MAX_FILES.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export const MAX_FILES = 2_000;
/** Larger files are not world sources anyone writes by hand; they are reported, not parsed. */
export const MAX_FILE_BYTES = 1 << 20;

export async function listWorldFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined && found.length < MAX_FILES; dir = pending.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') pending.push(path);
      } else if (entry.isFile() && entry.name.endsWith('.adec')) {
        found.push(path);
      }
    }
  }
  return found.slice(0, MAX_FILES).sort((a, b) => byteOrder(relativePath(root, a), relativePath(root, b)));
}

export type FileContent = { readonly text: string } | { readonly tooLarge: number } | undefined;

/** A file's text; `tooLarge` with its size past MAX_FILE_BYTES; undefined if it cannot be read. */
export async function readWorldFile(path: string): Promise<FileContent> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) return undefined;
  if (info.size > MAX_FILE_BYTES) return { tooLarge: info.size };
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { text };
}

/** `a/b.adec` relative to `root`, with `/` on every platform. */
export function relativePath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
