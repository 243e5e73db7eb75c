/**
 * Which world a file belongs to. A world is a directory of `.adec` files, its subdirectories
 * included (examples/fitness/skills/), and one of its files holds the `world { … }` header.
 * So the world of a file is the nearest directory, from the file's own upwards, with a
 * header in one of its `.adec` files; the search stops at the workspace folder that
 * contains the file. Without any header (a world being started), it is the file's directory.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';

/** How far up a file without a workspace folder may look for its world. */
const MAX_LEVELS = 8;

const HEADER = /(?:^|[\r\n])[ \t]*world[ \t\r\n]*\{/;

export function hasWorldHeader(text: string): boolean {
  return HEADER.test(text);
}

/**
 * @param file absolute path of the file
 * @param folders absolute paths of the workspace folders
 * @param openText the text of an open document, which wins over the file on disk
 */
export async function findWorldRoot(file: string, folders: readonly string[], openText: (path: string) => string | undefined): Promise<string> {
  const start = dirname(file);
  const boundary = folders.filter((f) => isInside(start, f)).sort((a, b) => b.length - a.length)[0];
  let dir = start;
  for (let level = 0; level < MAX_LEVELS || boundary !== undefined; level++) {
    if (await directoryHasHeader(dir, openText)) return dir;
    const parent = dirname(dir);
    if (dir === boundary || parent === dir) break;
    dir = parent;
  }
  return start;
}

async function directoryHasHeader(dir: string, openText: (path: string) => string | undefined): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.adec')) continue;
    const path = join(dir, entry.name);
    const text = openText(path) ?? (await readFile(path, 'utf8').catch(() => ''));
    if (hasWorldHeader(text)) return true;
  }
  return false;
}

export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
