import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { WorldSources } from './world-sources.js';

/** Why a world directory could not be read; the CLI reports it and exits 1. */
export interface WorldLoadError {
  readonly problem: string;
}

/**
 * Reads every `.adec` file below `dir` (recursively, resolved against `cwd`), in byte order
 * of relative path, so builds on any machine see the same files in the same order. Display
 * paths join `dir` as the user wrote it with the relative path, using `/` on every platform.
 */
export async function loadWorld(dir: string, cwd: string = process.cwd()): Promise<WorldSources | WorldLoadError> {
  const absolute = resolve(cwd, dir);
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined) return { problem: `world directory \`${dir}\` does not exist` };
  if (!info.isDirectory()) return { problem: `\`${dir}\` is not a directory: a world is a directory of .adec files` };
  const found = await listAdecFiles(absolute);
  if (found.length === 0) return { problem: `world directory \`${dir}\` contains no .adec files` };
  const root = toDisplayPath(dir);
  const files = await Promise.all(
    found.map(async (rel) => ({ path: `${root}/${rel}`, text: await readFile(join(absolute, rel), 'utf8') })),
  );
  return { root, files };
}

export function isWorldLoadError(value: WorldSources | WorldLoadError): value is WorldLoadError {
  return 'problem' in value;
}

async function listAdecFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.adec'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort(compareSourcePaths);
}

/** The order a build reads a world's files in: by relative path, compared as strings. */
export function compareSourcePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toDisplayPath(dir: string): string {
  const normalized = dir.split(sep).join('/').replace(/\/+$/, '');
  return normalized === '' ? '.' : normalized;
}

/** The path of a world file relative to the world directory, as manifests record it. */
export function worldRelativePath(sources: WorldSources, displayPath: string): string {
  const prefix = `${sources.root}/`;
  return displayPath.startsWith(prefix) ? displayPath.slice(prefix.length) : displayPath;
}
